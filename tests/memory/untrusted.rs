//! `ReadOptions::untrusted()` refuses deflate bombs before 64 MiB of
//! memory, measured here: a 33 KB archive whose one deflated member holds
//! 33,554,433 zero bytes of `'|u1'` (1 GiB as `serde_json::Value` with the
//! default options), and a 1 MB archive that really inflates to 1 GiB with
//! a wrong CRC-32 (with the default options it asks for at least 32 GiB as
//! `serde_json::Value`, and buffers 1 GiB before the CRC error as
//! `Vec<u8>`), each read into `serde_json::Value`, `Vec<u8>`, through
//! `NpzReader::raw` and whole with `NpzReader::read_all`.
//!
//! Both archives are built here: the deflate stream is written by hand (a
//! stored block with the npy header, then one dynamic-Huffman block of
//! 258-byte matches at two bits each), so the 1 GiB one costs no
//! compression time.

use std::io::Cursor;

use crate::{exclusive, peak_of};

/// 64 MiB: what a refused read may cost at most.
const CEILING: usize = 64 << 20;

/// Bits written least significant first, as deflate packs them.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    fn put(&mut self, value: u64, count: u32) {
        self.acc |= value << self.n;
        self.n += count;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    /// A Huffman code (written most significant bit first).
    fn code(&mut self, code: u64, len: u32) {
        let reversed = (0..len).fold(0, |r, i| r | ((code >> i) & 1) << (len - 1 - i));
        self.put(reversed, len);
    }

    fn zeros(&mut self, mut count: u64) {
        let k = count.min(u64::from((8 - self.n) % 8));
        self.put(0, k as u32);
        count -= k;
        if self.n == 0 {
            self.out
                .extend(std::iter::repeat_n(0u8, (count / 8) as usize));
            self.put(0, (count % 8) as u32);
        }
    }

    fn align(&mut self) {
        if self.n > 0 {
            self.put(0, 8 - self.n);
        }
    }
}

/// A raw deflate stream of `head` then `zeros` zero bytes.
fn deflate_zeros(head: &[u8], zeros: u64) -> Vec<u8> {
    let mut b = Bits::default();
    // a stored block (not the last) holding the header
    b.put(0, 1);
    b.put(0, 2);
    b.align();
    let len = u16::try_from(head.len()).unwrap();
    b.out.extend_from_slice(&len.to_le_bytes());
    b.out.extend_from_slice(&(!len).to_le_bytes());
    b.out.extend_from_slice(head);
    // the last block: dynamic Huffman codes where literal 0 and the end of
    // block take 2 bits, length 258 (symbol 285) 1 bit, distance 1 1 bit
    b.put(1, 1);
    b.put(2, 2);
    b.put(29, 5); // 286 literal/length codes
    b.put(1, 5); // 2 distance codes
    b.put(14, 4); // 18 code length codes
    const ORDER: [u64; 18] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1];
    for sym in ORDER {
        b.put(
            match sym {
                18 => 1,
                1 | 2 => 2,
                _ => 0,
            },
            3,
        );
    }
    // code length codes: 18 -> 0, 1 -> 10, 2 -> 11
    let (len1, len2, run) = ((2, 2), (3, 2), (0, 1));
    b.code(len2.0, len2.1); // literal 0: 2 bits
    for zeros in [138, 117] {
        b.code(run.0, run.1); // 255 unused literals
        b.put(zeros - 11, 7);
    }
    b.code(len2.0, len2.1); // end of block: 2 bits
    b.code(run.0, run.1); // lengths 257..284 unused
    b.put(28 - 11, 7);
    b.code(len1.0, len1.1); // length 258: 1 bit
    b.code(len1.0, len1.1); // distance codes 0 and 1: 1 bit each
    b.code(len1.0, len1.1);
    // literal/length codes: 285 -> 0, 0 -> 10, 256 -> 11; distance 1 -> 0
    b.code(2, 2);
    let left = zeros - 1;
    b.zeros(left / 258 * 2);
    for _ in 0..left % 258 {
        b.code(2, 2);
    }
    b.code(3, 2);
    b.align();
    b.out
}

/// CRC-32 (the zip one) of `head` then `zeros` zero bytes.
fn crc32(head: &[u8], zeros: u64) -> u32 {
    let table: Vec<u32> = (0..256u32)
        .map(|i| {
            (0..8).fold(i, |c, _| {
                if c & 1 == 1 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                }
            })
        })
        .collect();
    let step = |c: u32, byte: u8| table[((c ^ u32::from(byte)) & 0xFF) as usize] ^ (c >> 8);
    let mut c = head.iter().fold(!0u32, |c, &b| step(c, b));
    for _ in 0..zeros {
        c = step(c, 0);
    }
    !c
}

/// A zip archive of one deflated member `big.npy`: an npy header of
/// `'|u1'` and shape `(n,)`, then `n` zero bytes; `crc` its CRC-32
/// (`None`: the right one).
fn bomb(n: u64, crc: Option<u32>) -> Vec<u8> {
    let head = tests::npy_header_1d("|u1", n);
    let packed = deflate_zeros(&head, n);
    let size = u32::try_from(head.len() as u64 + n).unwrap();
    let crc = crc.unwrap_or_else(|| crc32(&head, n));
    let name = b"big.npy";
    let mut z = Vec::new();
    let common = |z: &mut Vec<u8>| {
        z.extend_from_slice(&20u16.to_le_bytes()); // version needed
        z.extend_from_slice(&0u16.to_le_bytes()); // flags
        z.extend_from_slice(&8u16.to_le_bytes()); // deflated
        z.extend_from_slice(&0u16.to_le_bytes()); // time
        z.extend_from_slice(&0x21u16.to_le_bytes()); // 1980-01-01
        z.extend_from_slice(&crc.to_le_bytes());
        z.extend_from_slice(&u32::try_from(packed.len()).unwrap().to_le_bytes());
        z.extend_from_slice(&size.to_le_bytes());
        z.extend_from_slice(&(name.len() as u16).to_le_bytes());
        z.extend_from_slice(&0u16.to_le_bytes()); // extra
    };
    z.extend_from_slice(b"PK\x03\x04");
    common(&mut z);
    z.extend_from_slice(name);
    z.extend_from_slice(&packed);
    let cd_at = z.len();
    z.extend_from_slice(b"PK\x01\x02");
    z.extend_from_slice(&20u16.to_le_bytes()); // made by
    common(&mut z);
    z.extend_from_slice(&[0; 14]); // comment, disk, attributes, offset 0
    z.extend_from_slice(name);
    let cd_len = z.len() - cd_at;
    z.extend_from_slice(b"PK\x05\x06\0\0\0\0\x01\0\x01\0");
    z.extend_from_slice(&u32::try_from(cd_len).unwrap().to_le_bytes());
    z.extend_from_slice(&u32::try_from(cd_at).unwrap().to_le_bytes());
    z.extend_from_slice(&0u16.to_le_bytes());
    z
}

/// Reads `archive` four ways under `opts`: the refusals, one line each, and
/// the largest peak of memory.
fn refusals(archive: &[u8], opts: &npy_serde::ReadOptions) -> (String, usize) {
    let open = || npy_serde::npz::NpzReader::with_options(Cursor::new(archive), opts.clone());
    let mut lines = String::new();
    let mut worst = 0;
    let ways: [(&str, &dyn Fn() -> npy_serde::Result<usize>); 4] = [
        ("Value", &|| {
            open()?
                .by_name::<serde_json::Value>("big")
                .map(|v| v.to_string().len())
        }),
        ("Vec<u8>", &|| {
            open()?.by_name::<Vec<u8>>("big").map(|v| v.len())
        }),
        ("raw", &|| open()?.raw("big").map(|v| v.len())),
        ("read_all Value", &|| {
            open()?
                .read_all::<serde_json::Value>()
                .map(|v| v.to_string().len())
        }),
    ];
    for (what, read) in ways {
        let mut outcome = None;
        let peak = peak_of(|| outcome = Some(read()));
        let err = outcome.unwrap().expect_err(what).to_string();
        assert!(
            err.contains("max_elements") || err.contains("max_bytes"),
            "{what}: {err}"
        );
        assert!(
            peak < CEILING,
            "{what}: peak {peak} bytes, over 64 MiB: {err}"
        );
        if std::env::var("ALLOC_TRACE").is_ok() {
            eprintln!("{what}: peak {peak} bytes");
        }
        worst = worst.max(peak);
        lines.push_str(&format!("{what}: {err}\n"));
    }
    (lines, worst)
}

#[test]
fn untrusted_refuses_deflate_bombs_under_64_mib() {
    let _lock = exclusive();
    let small = bomb(33_554_433, None);
    let gib = bomb(1 << 30, Some(0xDEAD_BEEF));
    assert!(small.len() < 40_000, "{}", small.len());
    assert!(gib.len() < 1_100_000, "{}", gib.len());
    // the archives are what they claim: honest zip members the zip crate
    // inflates (the first whole, the second's first 64 MiB)
    let mut z = zip::ZipArchive::new(Cursor::new(&small[..])).unwrap();
    let n = std::io::copy(&mut z.by_index(0).unwrap(), &mut std::io::sink()).unwrap();
    assert_eq!(n, 33_554_433 + 128);
    let mut z = zip::ZipArchive::new(Cursor::new(&gib[..])).unwrap();
    let mut member = z.by_index(0).unwrap();
    let n = std::io::copy(
        &mut std::io::Read::take(&mut member, 64 << 20),
        &mut std::io::sink(),
    )
    .unwrap();
    assert_eq!(n, 64 << 20);

    let untrusted = npy_serde::ReadOptions::untrusted();
    let mut text = String::new();
    let mut worst = 0;
    for (name, archive) in [
        ("33 KB, 32 MiB inflated", &small),
        ("1 MB, 1 GiB inflated, bad CRC", &gib),
    ] {
        let (lines, peak) = refusals(archive, &untrusted);
        text.push_str(&format!(
            "{name} ({} bytes), untrusted():\n{lines}",
            archive.len()
        ));
        worst = worst.max(peak);
        // the byte budget alone, with the element limit lifted
        let bytes_only = untrusted.clone().max_elements(u64::MAX);
        let (lines, peak) = refusals(archive, &bytes_only);
        text.push_str(&format!(
            "{name}, untrusted().max_elements(u64::MAX):\n{lines}"
        ));
        worst = worst.max(peak);
    }
    eprintln!("untrusted: the largest peak of a refusal was {worst} bytes");
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("untrusted_refuses_deflate_bombs", text);
    });
}

/// The streamed member's CRC-32 error names the member, as the buffered
/// read's does.
#[test]
fn a_streamed_bad_crc_names_the_member() {
    let _lock = exclusive();
    let archive = bomb(1000, Some(0xDEAD_BEEF));
    let mut z = npy_serde::npz::NpzReader::new(Cursor::new(&archive[..])).unwrap();
    let buffered = z.by_name::<Vec<u8>>("big").unwrap_err().to_string();
    assert_eq!(
        buffered,
        "member 'big': bad CRC-32: the member's data is damaged"
    );
    let mut r = z.reader("big").unwrap();
    let values: Vec<u8> = r.deserialize::<u8>().map(|v| v.unwrap()).collect();
    assert_eq!(values.len(), 1000);
    let mut member = r.into_inner();
    let err = std::io::Read::read_to_end(&mut member, &mut Vec::new()).unwrap_err();
    assert_eq!(err.to_string(), buffered);
}
