use std::io::Read;

use super::*;

/// Bytes that deflate somewhat (a slow counter with noise), like array data.
fn data(n: usize) -> Vec<u8> {
    let mut x = 0x9e37_79b9_u32;
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if x % 4 == 0 {
                x as u8
            } else {
                (i / 1000) as u8
            }
        })
        .collect()
}

/// `input` through a deflater of `pieces` pieces per wave, written `step`
/// bytes at a time; the compressed bytes.
fn deflate(input: &[u8], pieces: usize, step: usize) -> Vec<u8> {
    deflate_at(input, pieces, step, DEFAULT_LEVEL)
}

/// [`deflate`] at `level`.
fn deflate_at(input: &[u8], pieces: usize, step: usize, level: u32) -> Vec<u8> {
    let mut d = Deflater {
        buf: Vec::new(),
        primed: 0,
        wave: PIECE * pieces,
        level,
    };
    let mut out = Vec::new();
    let mut n = 0u64;
    for part in input.chunks(step.max(1)) {
        n += d.push(part, &mut out).unwrap();
    }
    n += d.finish(&mut out).unwrap();
    assert_eq!(n, out.len() as u64, "bytes reported = bytes written");
    out
}

fn inflate(packed: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::DeflateDecoder::new(packed)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// One deflate stream of the whole input (what the zip crate wrote).
fn single_stream(input: &[u8]) -> Vec<u8> {
    piece(&[], input, true, DEFAULT_LEVEL).unwrap()
}

#[test]
fn pieces_are_one_deflate_stream_of_the_input() {
    for n in [
        0,
        1,
        1000,
        PIECE - 1,
        PIECE,
        PIECE + 1,
        3 * PIECE + 5,
        9 * PIECE,
    ] {
        let input = data(n);
        let packed = deflate(&input, 2, 100_000);
        assert_eq!(inflate(&packed), input, "{n} bytes");
    }
}

#[test]
fn bytes_do_not_depend_on_waves_or_write_sizes() {
    let input = data(5 * PIECE + 17);
    let want = deflate(&input, 1, input.len());
    for (pieces, step) in [(1, 1 << 16), (2, 7919), (4, 1 << 20), (16, 1)] {
        assert_eq!(
            deflate(&input, pieces, step),
            want,
            "{pieces} pieces, {step}-byte writes"
        );
    }
}

#[test]
fn one_piece_is_a_single_stream_and_more_lose_almost_nothing() {
    let small = data(PIECE - 3);
    assert_eq!(deflate(&small, 2, 4096), single_stream(&small));
    let big = data(8 * PIECE);
    let (ours, one) = (deflate(&big, 2, 1 << 16).len(), single_stream(&big).len());
    // each cut costs a sync flush and a fresh block: well under 1 %
    assert!(
        ours <= one + one / 100,
        "{ours} bytes in pieces, {one} in one stream"
    );
}

#[test]
fn dictionaries_reach_across_cuts() {
    // a piece that repeats the end of the one before compresses to a few
    // bytes only when primed with it
    let mut input = data(PIECE);
    let tail = input[PIECE - 30_000..].to_vec();
    input.extend_from_slice(&tail);
    let packed = deflate(&input, 1, 1 << 16);
    let first = deflate(&input[..PIECE], 1, 1 << 16).len();
    assert!(packed.len() < first + 1000, "{} vs {first}", packed.len());
    assert_eq!(inflate(&packed), input);
}

#[test]
fn every_level_is_one_stream_of_the_input() {
    // across cuts (level 0's stored blocks take the dictionary too), the
    // bytes the same whatever the waves, and more effort never bigger here
    let input = data(3 * PIECE + 5);
    let mut sizes = Vec::new();
    for level in 0..=9 {
        let packed = deflate_at(&input, 2, 100_000, level);
        assert_eq!(inflate(&packed), input, "level {level}");
        assert_eq!(
            deflate_at(&input, 1, 7919, level),
            packed,
            "level {level}: other waves"
        );
        sizes.push(packed.len());
    }
    assert!(sizes[0] > input.len(), "level 0 stores: {sizes:?}");
    assert!(sizes[1] < sizes[0] && sizes[9] <= sizes[1], "{sizes:?}");
}
