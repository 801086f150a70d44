"""dataset.audio against MindSpore 2.10: the expected arrays are its outputs on these inputs
(recorded with mindspore.dataset.audio on its CPU build)."""
import numpy as np
import pytest

from tensorjit import dataset as ds
from tensorjit.dataset import audio

# MindSpore 2.10's outputs
SPEC = np.array(
    [[1.0, 16.0, 16.0, 0.0, 0.0], [3.749399025711001e-33, 5.0, 5.0, 1.0, 1.0], [1.0,
    1.4997593164108127e-32, 1.499759904157988e-32, 1.4997596102844004e-32,
    1.4997596102844004e-32]])
SPEC_OPTS = np.array(
    [[0.7052062749862671, 2.115618944168091, 3.599299669265747, 3.672567844390869,
    2.335423469543457, 0.851742684841156, 0.631938099861145], [0.7052062749862671,
    1.576889157295227, 2.482027530670166, 2.4643917083740234, 1.4916026592254639,
    0.7202699780464172, 0.7784744501113892], [0.7052062749862671, 0.7052062749862671,
    0.7784745693206787, 0.558669924736023, 0.4854017198085785, 0.558669924736023,
    0.631938099861145]])
SPEC_KAISER = np.array(
    [[0.046514734625816345, 8.194999694824219, 8.19560432434082, 1.1139730915488144e-08,
    2.0487499237060547], [0.046514734625816345, 4.18605899810791, 4.1856369972229,
    0.18605893850326538, 1.0], [0.046514734625816345, 1.2934719324111938, 1.2937119007110596,
    1.1139730915488144e-08, 0.32336798310279846], [0.046514734625816345, 4.18605899810791,
    4.1856369972229, 0.18605893850326538, 1.0]])
MEL = np.array(
    [[1.8675784048124175e-33, 2.4905035495758057, 2.4905035495758057, 0.49810072779655457,
    0.49810072779655457], [1.8818208045695757e-33, 2.5094964504241943, 2.5094964504241943,
    0.5018993020057678, 0.5018993020057678]])
MEL_SLANEY = np.array(
    [[1.8746991455135158e-33, 2.499999523162842, 2.499999523162842, 0.49999988079071045,
    0.49999988079071045], [1.8747002475394697e-33, 2.5000009536743164, 2.5000009536743164,
    0.5000001788139343, 0.5000001788139343]])
MELSPEC = np.array(
    [[[8.8480463453165215e-16, 2.222724676132202, 2.222724676132202, 0.2303217351436615,
    0.2303217351436615], [8.915522578081575e-16, 2.239675521850586, 2.239675521850586,
    0.2320781946182251, 0.2320781946182251]], [[8.8480463453165215e-16, 2.222724676132202,
    2.222724676132202, 0.2303217351436615, 0.2303217351436615], [8.915522578081575e-16,
    2.239675521850586, 2.239675521850586, 0.2320781946182251, 0.2320781946182251]]])
DB4 = np.array(
    [[[[-6.0, -6.0], [-6.0, -6.0]], [[-4.082400321960449, -2.4987752437591553],
    [-1.159839153289795, 0.0]]], [[[1.0230498313903809, 1.9381999969482422],
    [2.7660531997680664, 3.521824836730957]], [[4.217066764831543, 4.860760688781738],
    [5.460025787353516, 6.020600318908691]]]])
DB3 = np.array(
    [[[0.010300159454345703, 0.010300159454345703], [0.010300159454345703,
    0.010300159454345703]], [[0.9691001176834106, 1.760912537574768], [2.4303805828094482,
    3.0103001594543457]]])
DB2A = np.array([[0.6324555277824402, 2.0], [6.324555397033691, 20.0]])
WAV = np.array([0., 1, 2, 3, 2, 1, 0, -1], np.float32)


def close(got, want):
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_spectrogram():
    spec = audio.Spectrogram(n_fft=4)(WAV)
    assert spec.dtype == np.float32 and spec.shape == (3, 5)
    close(spec, SPEC)
    close(audio.Spectrogram(n_fft=4, win_length=3, hop_length=1, pad=1,
                            window=audio.WindowType.HAMMING, power=1.0, normalized=True,
                            center=False)(WAV), SPEC_OPTS)
    close(audio.Spectrogram(n_fft=4, window=audio.WindowType.KAISER,
                            pad_mode=audio.BorderType.EDGE, onesided=False)(WAV), SPEC_KAISER)
    assert audio.Spectrogram(n_fft=4)(WAV.astype(np.float64)).dtype == np.float64
    with pytest.raises(ValueError, match="win_length should be no more than n_fft"):
        audio.Spectrogram(n_fft=4, win_length=5)
    with pytest.raises(TypeError, match="window"):
        audio.Spectrogram(window="hann")
    with pytest.raises(RuntimeError, match="n_fft should be more than 0 and less than 5"):
        audio.Spectrogram(n_fft=8, center=False)(WAV[:5])


def test_mel_scale_and_mel_spectrogram():
    spec = audio.Spectrogram(n_fft=4)(WAV)
    close(audio.MelScale(n_mels=2, sample_rate=8, n_stft=3)(spec), MEL)
    close(audio.MelScale(2, 8, 0.5, 3.5, 3, audio.NormType.SLANEY, audio.MelType.SLANEY)(spec),
          MEL_SLANEY)
    close(audio.MelSpectrogram(sample_rate=8, n_fft=4, n_mels=2,
                               window=audio.WindowType.BLACKMAN)(np.stack([WAV, -WAV])), MELSPEC)
    with pytest.raises(RuntimeError, match="'n_stft' should be equal to 'freq'"):
        audio.MelScale(n_mels=2, sample_rate=8, n_stft=4)(spec)
    with pytest.raises(ValueError, match="sample_rate // 2 should be greater than f_min"):
        audio.MelScale(n_mels=2, sample_rate=16, f_min=9.0)


def test_decibels_and_gain():
    x = np.arange(1, 17, dtype=np.float32).reshape(2, 2, 2, 2) / 4
    # top_db floors below the maximum of each (channel, freq, time) block
    close(audio.AmplitudeToDB(audio.ScaleType.MAGNITUDE, 2.0, 1e-5, 6.0)(x), DB4)
    close(audio.AmplitudeToDB(top_db=3.0)(x[0]), DB3)
    assert audio.AmplitudeToDB()(np.ones((2, 2), np.int32)).dtype == np.float32
    with pytest.raises(RuntimeError, match="Expecting tensor in shape of <..., freq, time>"):
        audio.AmplitudeToDB()(np.ones(3, np.float32))
    with pytest.raises(ValueError, match=r"ref_value is not within the required interval of "
                                         r"\(0, 16777216\]"):
        audio.AmplitudeToDB(ref_value=0)
    with pytest.raises(TypeError, match="top_db"):
        audio.AmplitudeToDB(top_db=None)
    with pytest.raises(TypeError, match="stype"):
        audio.AmplitudeToDB(stype="power")
    close(audio.DBToAmplitude(2.0, 0.5)(np.array([[-10., 0], [10, 20]], np.float32)), DB2A)
    close(audio.Gain(-6.0)(WAV[:3]), [0.0, 0.5011872053146362, 1.0023744106292725])
    assert audio.Gain(1.0)(np.arange(2)).dtype == np.float32
    assert [m.value for m in audio.ScaleType] == ["power", "magnitude"]


def test_audio_pipeline():
    data = ds.NumpySlicesDataset({"wav": np.stack([WAV, 2 * WAV])}, shuffle=False)
    data = data.map(audio.MelSpectrogram(sample_rate=8, n_fft=4, n_mels=2), "wav")
    rows = [row[0] for row in data.create_tuple_iterator(output_numpy=True)]
    assert rows[0].shape == (2, 5)
    close(rows[1], 4 * rows[0])   # power 2: twice the signal, four times the power
