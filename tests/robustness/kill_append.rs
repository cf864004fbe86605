//! Crash safety of appends: a child process (this test binary again, with
//! `NPY_SERDE_KILL_CHILD` set) appends batches of records with
//! `NpyWriter::append` and `finish_durable`, through a file that takes at
//! most 7 bytes per write so that kills tear records; the parent SIGKILLs
//! it at random moments, many times (about 8 s in all), and after each kill
//! checks that npy_serde reads the file as whole records `0..n` (the old
//! array, or the old array plus whole new records), and numpy too when it
//! can be imported (`NPY_SERDE_PYTHON`, else `python3`). The next child's
//! `append` starts on whatever the kill left, torn tail included.

use std::io::{Read, Seek, SeekFrom, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use npy_serde::{Durable, NpyWriter};

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Rec {
    id: u64,
    x: f64,
    check: u32,
}

fn rec(id: u64) -> Rec {
    Rec {
        id,
        x: id as f64 * 0.5,
        check: (id as u32).wrapping_mul(2_654_435_761),
    }
}

/// A file that writes at most 7 bytes per call.
struct Trickle(std::fs::File);

impl Read for Trickle {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}
impl Write for Trickle {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len().min(7);
        self.0.write(&buf[..n])
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
impl Seek for Trickle {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.0.seek(pos)
    }
}
impl Durable for Trickle {
    fn sync_data(&mut self) -> std::io::Result<()> {
        self.0.sync_data()
    }
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        self.0.set_len(len)
    }
}

/// The child: appends batches of 1..40 records until killed.
#[test]
fn child_appender() {
    let Some(path) = std::env::var_os("NPY_SERDE_KILL_CHILD") else {
        return; // only a child runs this
    };
    let mut batch = 1u64;
    loop {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        let mut w = NpyWriter::append(Trickle(file)).unwrap();
        let start = w.len();
        for id in start..start + batch % 40 + 1 {
            w.serialize(&rec(id)).unwrap();
        }
        w.finish_durable().unwrap();
        batch = batch
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1)
            >> 3;
    }
}

fn python() -> Option<String> {
    let py = std::env::var("NPY_SERDE_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let ok = Command::new(&py)
        .args(["-c", "import numpy"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(py)
}

/// npy_serde reads `path` as records 0..n; returns n.
fn check(path: &std::path::Path, round: usize) -> usize {
    let got: Vec<Rec> = npy_serde::from_path(path)
        .unwrap_or_else(|e| panic!("round {round}: the file does not read: {e}"));
    for (i, r) in got.iter().enumerate() {
        assert_eq!(r, &rec(i as u64), "round {round}: record {i}");
    }
    got.len()
}

#[test]
fn appends_killed_at_random_moments_leave_whole_records() {
    let dir = std::env::temp_dir().join(format!("npy_serde_kill_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.npy");
    npy_serde::to_path(&path, &(0..3).map(rec).collect::<Vec<_>>()).unwrap();
    let head = npy_serde::Header::from_bytes(&std::fs::read(&path).unwrap(), &Default::default())
        .unwrap()
        .1;
    let exe = std::env::current_exe().unwrap();
    let py = python();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let deadline = Instant::now() + Duration::from_secs(8);
    let (mut rounds, mut torn, mut grew, mut last) = (0, 0, 0, 3);
    let mut snapshots = Vec::new();
    while Instant::now() < deadline || rounds < 20 {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "kill_append::child_appender",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("NPY_SERDE_KILL_CHILD", &path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        std::thread::sleep(Duration::from_micros(2_000 + seed % 60_000));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        rounds += 1;
        let n = check(&path, rounds);
        assert!(n >= last, "round {rounds}: {n} records, {last} before");
        grew += usize::from(n > last);
        last = n;
        let len = std::fs::metadata(&path).unwrap().len() as usize;
        torn += usize::from((len - head) % 20 != 0 || len - head > n * 20);
        if py.is_some() && rounds % 4 == 0 {
            let snap = dir.join(format!("snap{rounds}.npy"));
            std::fs::copy(&path, &snap).unwrap();
            snapshots.push((snap, n));
        }
    }
    // the last kill's leftovers: one more append continues after them
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    let mut w = NpyWriter::append(file).unwrap();
    for id in last as u64..last as u64 + 5 {
        w.serialize(&rec(id)).unwrap();
    }
    w.finish_durable().unwrap();
    assert_eq!(check(&path, rounds + 1), last + 5);
    assert_eq!(
        std::fs::metadata(&path).unwrap().len() as usize,
        head + (last + 5) * 20
    );
    eprintln!("{rounds} kills, {grew} after new records, {torn} with uncounted bytes at the end");
    assert!(grew > 0, "no kill came after a finished batch");
    if let Some(py) = py {
        let script = "import sys, numpy as np\n\
            for p, n in zip(sys.argv[1::2], sys.argv[2::2]):\n\
            \x20   a = np.load(p)\n\
            \x20   n = int(n)\n\
            \x20   assert a.shape == (n,), (p, a.shape, n)\n\
            \x20   assert (a['id'] == np.arange(n)).all(), p\n\
            \x20   assert (a['x'] == np.arange(n) * 0.5).all(), p\n\
            print('numpy read', len(sys.argv) // 2, 'files')\n";
        let mut cmd = Command::new(py);
        cmd.args(["-c", script]);
        for (p, n) in &snapshots {
            cmd.arg(p).arg(n.to_string());
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "numpy: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        eprintln!("{}", String::from_utf8_lossy(&out.stdout).trim());
    } else {
        eprintln!("numpy not available: checked with npy_serde only");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file in memory that takes at most 7 bytes per write, as `Trickle`,
/// and keeps a copy of itself after every write into the header: each copy
/// is what a kill between two of the header patch's writes would leave.
struct Torn {
    file: std::io::Cursor<Vec<u8>>,
    header_end: u64,
    after_each_write: Vec<Vec<u8>>,
}

impl Read for Torn {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.file.read(buf)
    }
}
impl Write for Torn {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let in_header = self.file.position() < self.header_end;
        let n = self.file.write(&buf[..buf.len().min(7)])?;
        if in_header {
            self.after_each_write.push(self.file.get_ref().clone());
        }
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
impl Seek for Torn {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.file.seek(pos)
    }
}

/// Every state a kill can leave while `finish` patches the count (between
/// any two writes of at most 7 bytes) reads as the old records or the new
/// ones: the patch never mixes new digits with old ones (7,997 records
/// patched to 8,004 must not read as 8,997 or 7,004).
#[test]
fn a_torn_header_patch_reads_as_the_old_count_or_the_new() {
    for (old, new) in [(7_997u64, 8_004u64), (3, 5), (99, 100), (123_456, 124_000)] {
        let bytes = npy_serde::to_vec(&(0..old).map(rec).collect::<Vec<_>>()).unwrap();
        let head = npy_serde::Header::from_bytes(&bytes, &Default::default())
            .unwrap()
            .1;
        let file = Torn {
            file: std::io::Cursor::new(bytes),
            header_end: head as u64,
            after_each_write: Vec::new(),
        };
        let mut w = NpyWriter::append(file).unwrap();
        for id in old..new {
            w.serialize(&rec(id)).unwrap();
        }
        let done = w.finish().unwrap();
        assert!(
            !done.after_each_write.is_empty(),
            "{old} -> {new}: no patch"
        );
        for (i, state) in done.after_each_write.iter().enumerate() {
            let got: Vec<Rec> = npy_serde::from_reader(&state[..])
                .unwrap_or_else(|e| panic!("{old} -> {new}, after write {i} of the patch: {e}"));
            let n = got.len() as u64;
            assert!(
                n == old || n == new,
                "{old} -> {new}, after write {i} of the patch: {n} records"
            );
        }
        let last = done.after_each_write.last().unwrap();
        assert_eq!(
            npy_serde::from_slice::<Vec<Rec>>(last).unwrap().len() as u64,
            new
        );
        // numpy reads each state too ("(99 ,), }" while a count gains a digit)
        if let Some(py) = python() {
            let dir =
                std::env::temp_dir().join(format!("npy_serde_torn_{}_{old}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let mut cmd = Command::new(py);
            cmd.args([
                "-c",
                "import sys, numpy as np\n\
                for p in sys.argv[3:]:\n\
                \x20   assert np.load(p).shape in [(int(sys.argv[1]),), (int(sys.argv[2]),)], p\n",
            ]);
            cmd.arg(old.to_string()).arg(new.to_string());
            for (i, state) in done.after_each_write.iter().enumerate() {
                let p = dir.join(format!("{i}.npy"));
                std::fs::write(&p, state).unwrap();
                cmd.arg(p);
            }
            let out = cmd.output().unwrap();
            assert!(
                out.status.success(),
                "numpy: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
