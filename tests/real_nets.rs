//! Every real net we can find reads, writes back byte for byte, and evaluates identically on
//! every path; nets of families we don't support are refused by name. Nets come from
//! `../shared/nets/` or `nets/fetched/` (`python3 scripts/fetch-nets.py`); missing ones are
//! skipped with a message.

use nnue_runtime::loaded::FastWeights;
use nnue_runtime::position::random_positions;
use nnue_runtime::Net;
use nnue_testkit::net_or_skip;

fn read(name: &str) -> Option<(Vec<u8>, Net)> {
    let path = net_or_skip(name, "real-net round trip")?;
    let bytes = std::fs::read(path).unwrap();
    let net = Net::from_bytes(&bytes, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    Some((bytes, net))
}

fn round_trip(name: &str) -> Option<Net> {
    let (bytes, net) = read(name)?;
    assert!(net.to_bytes() == bytes, "{name}: writing back changes the bytes");
    Some(net)
}

#[test]
fn stockfish_17_1_nets() {
    let positions = random_positions(17, 100);
    if let Some(net) = round_trip(nnue_testkit::SF17_SMALL) {
        let w = FastWeights::new(&net).unwrap();
        nnue_testkit::assert_matches_reference(&net, &w.sfnn::<128, 64, 32>().unwrap(), &positions);
    }
    if let Some(net) = round_trip(nnue_testkit::SF17_LITE) {
        let w = FastWeights::new(&net).unwrap();
        nnue_testkit::assert_matches_reference(&net, &w.sfnn::<256, 128, 64>().unwrap(), &positions);
    }
    if let Some(net) = round_trip(nnue_testkit::SF17_BIG) {
        let w = FastWeights::new(&net).unwrap();
        nnue_testkit::assert_matches_reference(&net, &w.sfnn::<3072, 1536, 768>().unwrap(), &positions[..20]);
    }
}

/// Stockfish 18's big net (threat inputs): every path equals the reference layer by layer.
#[test]
fn stockfish_18_big_net() {
    if let Some(net) = round_trip(nnue_testkit::SF18_BIG) {
        assert_eq!(net.arch().to_string(), "HalfKAv2_hm+Threats -> 1024x2 -> (15+1 -> 32 -> 1)x8, psqt=8");
        let w = FastWeights::new(&net).unwrap();
        let mut positions = random_positions(18, 100);
        if let Some(rows) = nnue_testkit::oracle("stockfish18-eval.tsv") {
            positions.extend(rows.iter().take(100).map(|r| nnue_runtime::Position::from_fen(&r.fen).unwrap()));
        }
        nnue_testkit::assert_matches_reference(&net, &w.sfnn_threats::<1024, 512, 256>().unwrap(), &positions);
    }
}

#[test]
fn stockfish_15_1_net() {
    // Debian 12's stockfish 15.1 (raw arrays, L1 1024).
    if let Some(net) = round_trip("nn-ad9b42354671.nnue") {
        assert_eq!(net.arch().l1(), 1024);
        let w = FastWeights::new(&net).unwrap();
        nnue_testkit::assert_matches_reference(&net, &w.sfnn::<1024, 512, 256>().unwrap(), &random_positions(15, 30));
    }
}

#[test]
fn stockfish_16_net() {
    if let Some(net) = round_trip("nn-5af11540bbfe.nnue") {
        assert_eq!(net.arch().l1(), 1536);
        let w = FastWeights::new(&net).unwrap();
        nnue_testkit::assert_matches_reference(&net, &w.sfnn::<1536, 768, 384>().unwrap(), &random_positions(16, 30));
    }
}

#[test]
fn stockfish_13_halfkp_net() {
    if let Some(net) = round_trip(nnue_testkit::SF13_HALFKP) {
        let w = FastWeights::new(&net).unwrap();
        nnue_testkit::assert_matches_reference(&net, &w.halfkp::<256, 128>().unwrap(), &random_positions(13, 100));
    }
}

#[test]
fn stockfish_14_net_is_refused_by_name() {
    let Some(path) = net_or_skip("nn-76a8a7ffb820.nnue", "Stockfish 14 refusal") else { return };
    let err = Net::from_bytes(&std::fs::read(path).unwrap(), None).unwrap_err();
    assert!(err.to_string().contains("Stockfish 14-era HalfKAv2 512x2"), "{err}");
}
