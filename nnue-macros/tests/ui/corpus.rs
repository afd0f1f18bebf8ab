// Generated from tests/corpus/manifest.tsv by `nnue_testkit::corpus::ui_source`:
// every malformed-net case as a compile error (checked by nnue-macros/tests/compile_fail.rs).

nnue_runtime::nnue_net! {
    name = empty,
    path = "../../nnue-corpus/empty.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_version,
    path = "../../nnue-corpus/truncated_version.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_after_version,
    path = "../../nnue-corpus/truncated_after_version.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_hash,
    path = "../../nnue-corpus/truncated_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_after_hash,
    path = "../../nnue-corpus/truncated_after_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_description_length,
    path = "../../nnue-corpus/truncated_description_length.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_after_description_length,
    path = "../../nnue-corpus/truncated_after_description_length.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_description,
    path = "../../nnue-corpus/truncated_description.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_after_description,
    path = "../../nnue-corpus/truncated_after_description.nnue",
}

nnue_runtime::nnue_net! {
    name = wrong_version,
    path = "../../nnue-corpus/wrong_version.nnue",
}

nnue_runtime::nnue_net! {
    name = wrong_file_hash,
    path = "../../nnue-corpus/wrong_file_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = threat_net_hash,
    path = "../../nnue-corpus/threat_net_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = stockfish14_hash,
    path = "../../nnue-corpus/stockfish14_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = stockfish14_description,
    path = "../../nnue-corpus/stockfish14_description.nnue",
}

nnue_runtime::nnue_net! {
    name = threat_description,
    path = "../../nnue-corpus/threat_description.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_version_on_sfnn_net,
    path = "../../nnue-corpus/halfkp_version_on_sfnn_net.nnue",
}

nnue_runtime::nnue_net! {
    name = sfnn_version_on_halfkp_net,
    path = "../../nnue-corpus/sfnn_version_on_halfkp_net.nnue",
}

nnue_runtime::nnue_net! {
    name = file_hash_of_other_l1,
    path = "../../nnue-corpus/file_hash_of_other_l1.nnue",
}

nnue_runtime::nnue_net! {
    name = description_disagrees,
    path = "../../nnue-corpus/description_disagrees.nnue",
}

nnue_runtime::nnue_net! {
    name = description_names_halfkp,
    path = "../../nnue-corpus/description_names_halfkp.nnue",
}

nnue_runtime::nnue_net! {
    name = description_not_utf8,
    path = "../../nnue-corpus/description_not_utf8.nnue",
}

nnue_runtime::nnue_net! {
    name = given_arch_disagrees,
    path = "../../nnue-corpus/given_arch_disagrees.nnue",
    arch = "HalfKAv2_hm -> 128x2 -> (15+1 -> 32 -> 1)x8, psqt=8",
}

nnue_runtime::nnue_net! {
    name = given_halfkp_arch_on_sfnn_net,
    path = "../../nnue-corpus/given_halfkp_arch_on_sfnn_net.nnue",
    arch = "HalfKP -> 64x2 -> 32 -> 32 -> 1",
}

nnue_runtime::nnue_net! {
    name = given_headerless_arch_on_sfnn_net,
    path = "../../nnue-corpus/given_headerless_arch_on_sfnn_net.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

nnue_runtime::nnue_net! {
    name = absurd_description_length,
    path = "../../nnue-corpus/absurd_description_length.nnue",
}

nnue_runtime::nnue_net! {
    name = absurd_description_length_1k,
    path = "../../nnue-corpus/absurd_description_length_1k.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_ft_hash,
    path = "../../nnue-corpus/truncated_ft_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = wrong_ft_hash,
    path = "../../nnue-corpus/wrong_ft_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_at_ft_biases,
    path = "../../nnue-corpus/truncated_at_ft_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_leb128_magic,
    path = "../../nnue-corpus/truncated_leb128_magic.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_leb128_count,
    path = "../../nnue-corpus/truncated_leb128_count.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_ft_biases_before_values,
    path = "../../nnue-corpus/truncated_ft_biases_before_values.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_ft_biases,
    path = "../../nnue-corpus/truncated_ft_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_at_ft_weights,
    path = "../../nnue-corpus/truncated_at_ft_weights.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_ft_weights_magic,
    path = "../../nnue-corpus/truncated_ft_weights_magic.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_ft_weights_count,
    path = "../../nnue-corpus/truncated_ft_weights_count.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_ft_weights,
    path = "../../nnue-corpus/truncated_ft_weights.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_ft_weights_last_byte,
    path = "../../nnue-corpus/truncated_ft_weights_last_byte.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_psqt,
    path = "../../nnue-corpus/truncated_psqt.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_psqt_count,
    path = "../../nnue-corpus/truncated_psqt_count.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_psqt_values,
    path = "../../nnue-corpus/truncated_psqt_values.nnue",
}

nnue_runtime::nnue_net! {
    name = absurd_leb128_count,
    path = "../../nnue-corpus/absurd_leb128_count.nnue",
}

nnue_runtime::nnue_net! {
    name = absurd_leb128_count_1k,
    path = "../../nnue-corpus/absurd_leb128_count_1k.nnue",
}

nnue_runtime::nnue_net! {
    name = absurd_psqt_count,
    path = "../../nnue-corpus/absurd_psqt_count.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_count_zero,
    path = "../../nnue-corpus/leb128_count_zero.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_count_too_small,
    path = "../../nnue-corpus/leb128_count_too_small.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_count_disagrees,
    path = "../../nnue-corpus/leb128_count_disagrees.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_count_one_short,
    path = "../../nnue-corpus/leb128_count_one_short.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_overlong,
    path = "../../nnue-corpus/leb128_overlong.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_overlong_minus_one,
    path = "../../nnue-corpus/leb128_overlong_minus_one.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_overlong_weight,
    path = "../../nnue-corpus/leb128_overlong_weight.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_too_long,
    path = "../../nnue-corpus/leb128_too_long.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_out_of_range,
    path = "../../nnue-corpus/leb128_out_of_range.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_out_of_range_negative,
    path = "../../nnue-corpus/leb128_out_of_range_negative.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_psqt_out_of_range,
    path = "../../nnue-corpus/leb128_psqt_out_of_range.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_psqt_too_long,
    path = "../../nnue-corpus/leb128_psqt_too_long.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_truncated_value,
    path = "../../nnue-corpus/leb128_truncated_value.nnue",
}

nnue_runtime::nnue_net! {
    name = leb128_magic_misspelt,
    path = "../../nnue-corpus/leb128_magic_misspelt.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack0_hash,
    path = "../../nnue-corpus/truncated_stack0_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack1_hash,
    path = "../../nnue-corpus/truncated_stack1_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack2_hash,
    path = "../../nnue-corpus/truncated_stack2_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack3_hash,
    path = "../../nnue-corpus/truncated_stack3_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack4_hash,
    path = "../../nnue-corpus/truncated_stack4_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack5_hash,
    path = "../../nnue-corpus/truncated_stack5_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack6_hash,
    path = "../../nnue-corpus/truncated_stack6_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack7_hash,
    path = "../../nnue-corpus/truncated_stack7_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack0_fc0_biases,
    path = "../../nnue-corpus/truncated_stack0_fc0_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack0_fc0_weights,
    path = "../../nnue-corpus/truncated_stack0_fc0_weights.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack0_fc1_biases,
    path = "../../nnue-corpus/truncated_stack0_fc1_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack0_fc1_weights,
    path = "../../nnue-corpus/truncated_stack0_fc1_weights.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack0_fc2_biases,
    path = "../../nnue-corpus/truncated_stack0_fc2_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack0_fc2_weights,
    path = "../../nnue-corpus/truncated_stack0_fc2_weights.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack3_fc1_biases,
    path = "../../nnue-corpus/truncated_stack3_fc1_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack7_fc0_biases,
    path = "../../nnue-corpus/truncated_stack7_fc0_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack7_fc0_weights,
    path = "../../nnue-corpus/truncated_stack7_fc0_weights.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack7_fc1_biases,
    path = "../../nnue-corpus/truncated_stack7_fc1_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack7_fc1_weights,
    path = "../../nnue-corpus/truncated_stack7_fc1_weights.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_stack7_fc2_biases,
    path = "../../nnue-corpus/truncated_stack7_fc2_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = truncated_last_byte,
    path = "../../nnue-corpus/truncated_last_byte.nnue",
}

nnue_runtime::nnue_net! {
    name = wrong_stack_hash,
    path = "../../nnue-corpus/wrong_stack_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = wrong_stack0_hash,
    path = "../../nnue-corpus/wrong_stack0_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = stack_hash_of_other_l1,
    path = "../../nnue-corpus/stack_hash_of_other_l1.nnue",
}

nnue_runtime::nnue_net! {
    name = trailing_bytes,
    path = "../../nnue-corpus/trailing_bytes.nnue",
}

nnue_runtime::nnue_net! {
    name = trailing_kilobyte,
    path = "../../nnue-corpus/trailing_kilobyte.nnue",
}

nnue_runtime::nnue_net! {
    name = raw_truncated_ft_biases,
    path = "../../nnue-corpus/raw_truncated_ft_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = raw_truncated_ft_weights,
    path = "../../nnue-corpus/raw_truncated_ft_weights.nnue",
}

nnue_runtime::nnue_net! {
    name = raw_truncated_psqt,
    path = "../../nnue-corpus/raw_truncated_psqt.nnue",
}

nnue_runtime::nnue_net! {
    name = raw_truncated_stack4_hash,
    path = "../../nnue-corpus/raw_truncated_stack4_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = raw_wrong_stack6_hash,
    path = "../../nnue-corpus/raw_wrong_stack6_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = raw_trailing_bytes,
    path = "../../nnue-corpus/raw_trailing_bytes.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_truncated_header,
    path = "../../nnue-corpus/halfkp_truncated_header.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_truncated_ft_hash,
    path = "../../nnue-corpus/halfkp_truncated_ft_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_wrong_ft_hash,
    path = "../../nnue-corpus/halfkp_wrong_ft_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_truncated_ft_biases,
    path = "../../nnue-corpus/halfkp_truncated_ft_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_truncated_ft_weights,
    path = "../../nnue-corpus/halfkp_truncated_ft_weights.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_truncated_network_hash,
    path = "../../nnue-corpus/halfkp_truncated_network_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_wrong_network_hash,
    path = "../../nnue-corpus/halfkp_wrong_network_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_truncated_fc0_biases,
    path = "../../nnue-corpus/halfkp_truncated_fc0_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_truncated_fc0,
    path = "../../nnue-corpus/halfkp_truncated_fc0.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_truncated_fc1_biases,
    path = "../../nnue-corpus/halfkp_truncated_fc1_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_truncated_fc1_weights,
    path = "../../nnue-corpus/halfkp_truncated_fc1_weights.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_truncated_fc2_biases,
    path = "../../nnue-corpus/halfkp_truncated_fc2_biases.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_truncated_last_byte,
    path = "../../nnue-corpus/halfkp_truncated_last_byte.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_trailing_bytes,
    path = "../../nnue-corpus/halfkp_trailing_bytes.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_wrong_file_hash,
    path = "../../nnue-corpus/halfkp_wrong_file_hash.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_file_hash_of_other_l1,
    path = "../../nnue-corpus/halfkp_file_hash_of_other_l1.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_description_disagrees,
    path = "../../nnue-corpus/halfkp_description_disagrees.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_description_names_halfkav2,
    path = "../../nnue-corpus/halfkp_description_names_halfkav2.nnue",
}

nnue_runtime::nnue_net! {
    name = halfkp_given_sfnn_arch,
    path = "../../nnue-corpus/halfkp_given_sfnn_arch.nnue",
    arch = "HalfKAv2_hm -> 64x2 -> (15+1 -> 32 -> 1)x8, psqt=8",
}

nnue_runtime::nnue_net! {
    name = headerless_without_description,
    path = "../../nnue-corpus/headerless_without_description.nnue",
}

nnue_runtime::nnue_net! {
    name = headerless_given_sfnn_arch,
    path = "../../nnue-corpus/headerless_given_sfnn_arch.nnue",
    arch = "HalfKAv2_hm -> 64x2 -> (15+1 -> 32 -> 1)x8, psqt=8",
}

nnue_runtime::nnue_net! {
    name = headerless_empty,
    path = "../../nnue-corpus/headerless_empty.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

nnue_runtime::nnue_net! {
    name = headerless_wrong_size,
    path = "../../nnue-corpus/headerless_wrong_size.nnue",
    arch = "(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

nnue_runtime::nnue_net! {
    name = headerless_truncated,
    path = "../../nnue-corpus/headerless_truncated.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

nnue_runtime::nnue_net! {
    name = headerless_one_byte_short,
    path = "../../nnue-corpus/headerless_one_byte_short.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

nnue_runtime::nnue_net! {
    name = headerless_one_byte_long,
    path = "../../nnue-corpus/headerless_one_byte_long.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

nnue_runtime::nnue_net! {
    name = headerless_extra_padding,
    path = "../../nnue-corpus/headerless_extra_padding.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

nnue_runtime::nnue_net! {
    name = headerless_nonzero_padding,
    path = "../../nnue-corpus/headerless_nonzero_padding.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

nnue_runtime::nnue_net! {
    name = headerless_nonzero_first_padding_byte,
    path = "../../nnue-corpus/headerless_nonzero_first_padding_byte.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

nnue_runtime::nnue_net! {
    name = headerless_fewer_output_buckets,
    path = "../../nnue-corpus/headerless_fewer_output_buckets.nnue",
    arch = "(768x2hm -> 32)x2 -> 1, screlu, qa=255, qb=64, scale=400, kings=[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
}

nnue_runtime::nnue_net! {
    name = headerless_more_king_buckets,
    path = "../../nnue-corpus/headerless_more_king_buckets.nnue",
    arch = "(768x3hm -> 32)x2 -> 1x8, screlu, qa=255, qb=64, scale=400, kings=[0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2]",
}

nnue_runtime::nnue_net! {
    name = layered_wider_description,
    path = "../../nnue-corpus/layered_wider_description.nnue",
    arch = "(768 -> 128)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, file=alexandria",
}

nnue_runtime::nnue_net! {
    name = layered_one_byte_short,
    path = "../../nnue-corpus/layered_one_byte_short.nnue",
    arch = "(768 -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, file=alexandria",
}

nnue_runtime::nnue_net! {
    name = layered_nan_bias,
    path = "../../nnue-corpus/layered_nan_bias.nnue",
    arch = "(768 -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, file=alexandria",
}

nnue_runtime::nnue_net! {
    name = layered_infinite_weight,
    path = "../../nnue-corpus/layered_infinite_weight.nnue",
    arch = "(768 -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, file=alexandria",
}

nnue_runtime::nnue_net! {
    name = cbnf_bad_magic,
    path = "../../nnue-corpus/cbnf_bad_magic.nnue",
    arch = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf",
}

nnue_runtime::nnue_net! {
    name = cbnf_compressed,
    path = "../../nnue-corpus/cbnf_compressed.nnue",
    arch = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf",
}

nnue_runtime::nnue_net! {
    name = cbnf_kings_not_merged,
    path = "../../nnue-corpus/cbnf_kings_not_merged.nnue",
    arch = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf",
}

nnue_runtime::nnue_net! {
    name = cbnf_other_hidden_size,
    path = "../../nnue-corpus/cbnf_other_hidden_size.nnue",
    arch = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf",
}

nnue_runtime::nnue_net! {
    name = cbnf_single_activation,
    path = "../../nnue-corpus/cbnf_single_activation.nnue",
    arch = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf",
}

nnue_runtime::nnue_net! {
    name = cbnf_name_too_long,
    path = "../../nnue-corpus/cbnf_name_too_long.nnue",
    arch = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf",
}

nnue_runtime::nnue_net! {
    name = cbnf_name_not_utf8,
    path = "../../nnue-corpus/cbnf_name_not_utf8.nnue",
    arch = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf",
}

nnue_runtime::nnue_net! {
    name = cbnf_truncated_header,
    path = "../../nnue-corpus/cbnf_truncated_header.nnue",
    arch = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf",
}

nnue_runtime::nnue_net! {
    name = cbnf_without_description,
    path = "../../nnue-corpus/cbnf_without_description.nnue",
}

nnue_runtime::nnue_net! {
    name = bullet_layout_bad_padding,
    path = "../../nnue-corpus/bullet_layout_bad_padding.nnue",
    arch = "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x4, f32, l1mul=512/4161600, scale=400, file=bullet",
}

nnue_runtime::nnue_net! {
    name = reckless_one_byte_short,
    path = "../../nnue-corpus/reckless_one_byte_short.nnue",
    arch = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, l1mul=512/4161600, scale=380, threats=reckless, file=reckless, kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
}

nnue_runtime::nnue_net! {
    name = reckless_nan_l3_bias,
    path = "../../nnue-corpus/reckless_nan_l3_bias.nnue",
    arch = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, l1mul=512/4161600, scale=380, threats=reckless, file=reckless, kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
}

nnue_runtime::nnue_net! {
    name = caissa_wrong_magic,
    path = "../../nnue-corpus/caissa_wrong_magic.nnue",
    arch = "(768 -> 32)x2 -> 1x2, screlu, qa=255, scale=none, file=caissa",
}

nnue_runtime::nnue_net! {
    name = caissa_wrong_version,
    path = "../../nnue-corpus/caissa_wrong_version.nnue",
    arch = "(768 -> 32)x2 -> 1x2, screlu, qa=255, scale=none, file=caissa",
}

nnue_runtime::nnue_net! {
    name = caissa_wrong_hidden_size,
    path = "../../nnue-corpus/caissa_wrong_hidden_size.nnue",
    arch = "(768 -> 32)x2 -> 1x2, screlu, qa=255, scale=none, file=caissa",
}

nnue_runtime::nnue_net! {
    name = caissa_bias_out_of_range,
    path = "../../nnue-corpus/caissa_bias_out_of_range.nnue",
    arch = "(768 -> 32)x2 -> 1x2, screlu, qa=255, scale=none, file=caissa",
}

nnue_runtime::nnue_net! {
    name = caissa_output_weight_past_int16_products,
    path = "../../nnue-corpus/caissa_output_weight_past_int16_products.nnue",
    arch = "(768 -> 32)x2 -> 1x2, screlu, qa=255, scale=none, file=caissa",
}

nnue_runtime::nnue_net! {
    name = caissa_one_byte_short,
    path = "../../nnue-corpus/caissa_one_byte_short.nnue",
    arch = "(768 -> 32)x2 -> 1x2, screlu, qa=255, scale=none, file=caissa",
}

nnue_runtime::nnue_net! {
    name = caissa_without_description,
    path = "../../nnue-corpus/caissa_without_description.nnue",
}

fn main() {}
