//! Collects the documentation's memory-map code (the README's and the
//! tutorial's blocks that `use memmap2`) into `$OUT_DIR/memory_map_docs.md`,
//! which `lib.rs` runs as doctests of this package. The root package leaves
//! memmap2 out of its dev-dependencies (the quickstart builds in fewer
//! crates), so there the blocks are marked `ignore`; here they run.

use std::fmt::Write as _;
use std::path::Path;

/// The fenced blocks of `text` (lines already stripped of any `//! `
/// prefix) whose fence is marked `ignore` and whose code uses memmap2.
fn map_blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines() {
        let fence = line.trim_start().starts_with("```");
        match (&mut block, fence) {
            (None, true) if line.contains("ignore") => block = Some(String::new()),
            (Some(b), true) => {
                if b.contains("use memmap2") {
                    out.push(b.clone());
                }
                block = None;
            }
            (Some(b), false) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    out
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut doc = String::new();
    for (file, doc_comment) in [("README.md", false), ("src/tutorial.rs", true)] {
        let path = root.join(file);
        println!("cargo::rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("read the documentation");
        let text: String = if doc_comment {
            text.lines()
                .filter_map(|l| l.trim_start().strip_prefix("//!"))
                .map(|l| l.strip_prefix(' ').unwrap_or(l))
                .fold(String::new(), |mut s, l| {
                    s.push_str(l);
                    s.push('\n');
                    s
                })
        } else {
            text
        };
        let blocks = map_blocks(&text);
        // each file has its memory-map block: a lost marker must not pass quietly
        assert!(
            !blocks.is_empty(),
            "no `ignore` block using memmap2 in {file}"
        );
        for b in blocks {
            write!(doc, "From `{file}`:\n\n```rust\n{b}```\n\n").unwrap();
        }
    }
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("memory_map_docs.md");
    std::fs::write(out, doc).unwrap();
}
