"""Why each MindSpore 2.10 public name tensorjit does not offer is missing, by reason.

``python -m tensorjit.tools.mindspore_api --gaps`` prints them; tests/core/test_api_coverage.py
checks that every name missing from a namespace is here, and that no name here is offered.
A name leaves this table when it is implemented (rerun the tool to claim it)."""

GAPS = {
    "ops": {
        "complex numbers: tensorjit has no complex dtype (NumPy's complex64 / complex128 are "
        "not among its dtypes yet)":
            "Angle angle Complex ComplexAbs Conj conj Imag imag Real real Polar polar "
            "view_as_real is_complex FFTWithSize fft fft2 fftn ifft ifft2 ifftn rfft rfft2 rfftn "
            "irfft irfft2 irfftn hfft hfft2 hfftn ihfft ihfft2 ihfftn fftfreq rfftfreq fftshift "
            "ifftshift STFT stft Eig eig eigvals MatrixLogarithm",
        "Ascend only: fused attention, mixture-of-experts routing, paged KV caches and "
        "Ascend's float-status registers, which MindSpore runs on no CPU":
            "flash_attention_score fused_infer_attention_score incre_flash_attention "
            "prompt_flash_attention speed_fusion_attention sparse_flash_attention "
            "PagedAttention PagedAttentionMask ReshapeAndCache moe_distribute_combine "
            "moe_distribute_dispatch moe_init_routing_v2 moe_token_permute moe_token_unpermute "
            "GroupTopk lightning_indexer nsa_compress nsa_compress_attention "
            "nsa_select_attention ring_attention_update multi_scale_deformable_attn_function "
            "all_gather_matmul matmul_reduce_scatter NPUAllocFloatStatus NPUClearFloatStatus "
            "NPUGetFloatStatus FloatStatus DynamicGRUV2 DynamicRNN BasicLSTMCell rotated_iou",
        "registration of kernels for MindSpore's own compilers (AKG, TBE, AiCPU, its C++ CPU "
        "kernels); tensorjit's custom operators are ops.Custom with CustomRegOp":
            "AiCPURegOp AkgAscendRegOp AkgGpuRegOp TBERegOp CpuRegOp CustomOpBuilder "
            "op_info_register",
        "internals of MindSpore's graph compiler, exported by ops but not a user API "
        "(control-flow nodes, environment and sequence primitives, view and dispatch "
        "helpers, code generation)":
            "J _Grad _Vmap UpdateState Merge merge GeSwitch geswitch switch switch_layer "
            "environ_create environ_get environ_set environ_add env_get PyExecute PyFunc "
            "_ms_pyfunc _add_attr cpp_create_prim_instance_helper gen_extend_func "
            "pyboost_inner_prim arg_dtype_cast arg_handler prim_arg_register prim_attr_register "
            "signature add_flags broadcast_gradient_args reduced_shape dyn_shape DynamicShape "
            "TensorToTuple shape_ reshape_ tensor_slice SliceGetItem SelectView TransposeView "
            "TransposeExtView CopyWithSlice mixed_precision_cast hyper_add tail "
            "is_sequence_shape_unknown is_sequence_value_unknown "
            "is_dynamic_sequence_element_unknown is_tensor_bool_cond iter_converter ms_hasnext "
            "ms_next tensor_operator_registry vm_impl_registry get_vm_impl_fn DtypeToEnum "
            "_ones_like_for_grad string_concat string_eq deepcopy jet get_grad Reusing MoveTo "
            "move_to recompute_block ref_to_embed embed distribute Primitive PrimitiveWithCheck "
            "PrimitiveWithInfer",
        "collective communication at the ops level: tensorjit's collectives are "
        "tensorjit.communication's (all_reduce, all_gather, reduce_scatter, broadcast, "
        "all_to_all over MPI); point-to-point, uneven and object collectives, groups by "
        "name and the parameter server are not there yet":
            "AllGatherV AlltoAll AlltoAllV AlltoAllVC BatchISendIRecv CollectiveGather "
            "CollectiveScatter NeighborExchange NeighborExchangeV2 P2POp Receive Reduce "
            "ReduceScatterV Send TCPStore Reshard reshard all_gather_into_tensor "
            "all_gather_into_tensor_uneven all_gather_object all_to_all all_to_all_single "
            "all_to_all_v_c batch_isend_irecv broadcast_object_list destroy_process_group "
            "gather_into_tensor gather_object get_backend get_global_rank get_group_rank "
            "get_process_group_ranks get_rank get_world_size init_process_group irecv "
            "is_available is_initialized isend new_group recv recv_object_list "
            "reduce_scatter_tensor reduce_scatter_tensor_uneven scatter_object_list "
            "scatter_tensor send send_object_list set_comm_ops_inplace _AllSwap Pull Push "
            "MapCacheIdx MapUniform make_map_parameter",
        "in-graph summaries and dumps: SummaryRecord writes MindSpore's event files from "
        "add_value, but the ops that feed it from inside a graph are not written yet":
            "ScalarSummary ImageSummary TensorSummary HistogramSummary TensorDump tensordump "
            "DumpGradient",
        "the dataset sink's device queue (tensorjit's sink mode feeds the graph from the "
        "pipeline directly)":
            "GetNext",
        "Ascend-only kernels whose layout is the device kernel's own: rotary embedding with "
        "Ascend's position formats, and the LSTM op whose flat weights and reserve / state "
        "outputs are oneDNN's and cuDNN's workspaces (nn.LSTM is offered)":
            "ApplyRotaryPosEmb LSTM",
        "detection and sequence ops not yet written: non-maximum suppression variants, "
        "glimpses, resampling, volume patches, edit distance, n-gram blocking, RNN-T loss, "
        "random box sampling":
            "NMSWithMask NonMaxSuppressionV3 NonMaxSuppressionWithOverlaps "
            "CombinedNonMaxSuppression ExtractGlimpse ScaleAndTranslate ExtractVolumePatches "
            "EditDistance NoRepeatNGram RNNTLoss SampleDistortedBoundingBoxV2",
        "not yet written: hooks on gradients, debugging and dropout-mask primitives, "
        "embedding lookup, index_put, ParallelConcat, the condition number and a few more":
            "HookBackward InsertGradientOf Assert cond EmbeddingLookup IndexPut ParallelConcat "
            "Ormqr DropoutGenMask DropoutDoMask ConfusionMatrix SubAndFilter array_reduce Morph",
        "candidate samplers for sampled softmax: not yet written":
            "UniformCandidateSampler uniform_candidate_sampler LogUniformCandidateSampler "
            "log_uniform_candidate_sampler ComputeAccidentalHits",
    },
    "mint": {
        "complex numbers: tensorjit has no complex dtype": "polar",
    },
    "nn": {
        "AdaSum's distributed optimizer wrappers (Ascend, over HCCL)":
            "AdaSumByDeltaWeightWrapCell AdaSumByGradWrapCell",
        "THOR, MindSpore's second-order optimizer, and its layers (Ascend and GPU)":
            "Conv2dThor DenseThor EmbeddingLookupThor EmbeddingThor thor",
        "Ascend's training-fault-tolerance wrapper": "OptTFTWrapper",
        "pipeline and automatic parallelism (issue 37)":
            "PipelineCell PipelineGradReducer VirtualDatasetCellTriple",
        "the dataset sink's device queue": "GetNextSingleOp",
    },
}


def reasons(namespace):
    """{name: reason} for a namespace's missing names."""
    return {name: reason for reason, names in GAPS.get(namespace, {}).items()
            for name in names.split()}
