"""MindSpore's "Converting Dataset to MindRecord" tutorial (tutorials/dataset/record), with
only the imports changed: images and labels written to a MindRecord file with FileWriter,
read back with MindDataset, decoded, batched and iterated; then the tutorial's text (NLP)
schema of integer arrays, written to two shards and read as one dataset. The files are
MindSpore's own format: MindSpore reads them as it reads its own (tests/dataset).

    python examples/mindrecord_conversion.py [--samples 100] [--workdir DIR]
"""
import argparse
import os
import tempfile
from io import BytesIO

import numpy as np
from PIL import Image

import tensorjit as mindspore
import tensorjit.dataset as ds
import tensorjit.dataset.vision as vision
from tensorjit.mindrecord import FileReader, FileWriter

parser = argparse.ArgumentParser()
parser.add_argument("--samples", type=int, default=100)
parser.add_argument("--workdir", default=None)
args = parser.parse_args()
workdir = args.workdir or tempfile.mkdtemp(prefix="tensorjit-mindrecord-")

# ---- Converting images and labels ----------------------------------------------------------
MINDRECORD_FILE = os.path.join(workdir, "test.mindrecord")
for path in (MINDRECORD_FILE, MINDRECORD_FILE + ".db"):
    if os.path.exists(path):
        os.remove(path)

writer = FileWriter(file_name=MINDRECORD_FILE, shard_num=1)
cv_schema = {"file_name": {"type": "string"}, "label": {"type": "int32"},
             "data": {"type": "bytes"}}
writer.add_schema(cv_schema, "it is a cv dataset")
writer.add_index(["file_name", "label"])

data = []
for i in range(args.samples):
    sample = {}
    white_io = BytesIO()
    Image.new("RGB", ((i + 1) * 4, (i + 1) * 4), (255, 255, 255)).save(white_io, "JPEG")
    sample["file_name"] = str(i + 1) + ".jpg"
    sample["label"] = i + 1
    sample["data"] = white_io.getvalue()
    data.append(sample)
    if i % 10 == 0:
        writer.write_raw_data(data)
        data = []
if data:
    writer.write_raw_data(data)
writer.commit()

# ---- Loading the MindRecord dataset ---------------------------------------------------------
data_set = ds.MindDataset(dataset_files=MINDRECORD_FILE)
decode_op = vision.Decode()
data_set = data_set.map(operations=decode_op, input_columns=["data"], num_parallel_workers=2)
count = 0
for item in data_set.create_dict_iterator(output_numpy=True):
    if count < 2:
        print("sample: file_name {}, label {}, image {} {}".format(
            item["file_name"], item["label"], item["data"].shape, item["data"].dtype))
    count += 1
print("Got {} samples".format(count))

# the images, resized to one shape, in batches of 8 (a model's input)
batches = ds.MindDataset(dataset_files=MINDRECORD_FILE, shuffle=False)
batches = batches.map([vision.Decode(), vision.Resize((32, 32)), vision.Rescale(1 / 255.0, 0),
                       vision.HWC2CHW()], input_columns=["data"])
batches = batches.project(["data", "label"]).batch(8, drop_remainder=True)
for images, labels in batches.create_tuple_iterator():
    print("batch:", images.shape, images.dtype, labels.shape, labels.dtype)
    break
print("batches per epoch:", batches.get_dataset_size())

# ---- Converting text data: integer arrays, written to two shards -----------------------------
NLP_FILE = os.path.join(workdir, "nlp.mindrecord")
writer = FileWriter(file_name=NLP_FILE, shard_num=2, overwrite=True)
nlp_schema = {"source_sos_ids": {"type": "int64", "shape": [-1]},
              "source_sos_mask": {"type": "int64", "shape": [-1]},
              "target_sos_ids": {"type": "int64", "shape": [-1]},
              "target_eos_mask": {"type": "int64", "shape": [-1]}}
writer.add_schema(nlp_schema, "it is a preprocessed nlp dataset")
rng = np.random.default_rng(0)
rows = []
for i in range(args.samples):
    length = 8
    ids = rng.integers(1, 30000, length).astype(np.int64)
    rows.append({"source_sos_ids": ids, "source_sos_mask": np.ones(length, np.int64),
                 "target_sos_ids": ids[::-1].copy(), "target_eos_mask": np.ones(length,
                                                                                np.int64)})
writer.write_raw_data(rows)
writer.commit()

reader = FileReader(NLP_FILE + "0")          # one file name reads its whole set
print("nlp rows:", reader.len(), "fields:", sorted(reader.schema()))
reader.close()
nlp = ds.MindDataset(dataset_files=NLP_FILE + "0", columns_list=["source_sos_ids",
                                                                 "target_sos_ids"])
nlp = nlp.batch(16, drop_remainder=True)
first = next(nlp.create_dict_iterator())
print("nlp batch:", first["source_sos_ids"].shape, first["source_sos_ids"].dtype,
      mindspore.ops.equal(first["source_sos_ids"][:, ::-1], first["target_sos_ids"]).all())
