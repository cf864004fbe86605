//! `npy diff`: whether two arrays hold the same values, as
//! `np.testing.assert_allclose(a, b, rtol, atol, equal_nan=True)` decides,
//! field by field.
//!
//! Shapes and field names must be the same (else that difference is all
//! that is reported); a column whose dtype differs is a difference, its
//! values still compared. Numbers (integers, floats, complex) are close
//! when `|a - b| <= atol + rtol * |b|` (complex: the moduli), NaN equals
//! NaN, an infinity only the same infinity; integers equal exactly are
//! equal whatever the tolerance. Everything else (`b1`, `S`, `U`, `V`,
//! datetimes, timedeltas) must be equal exactly (NaT equals NaT). Per
//! column: how many rows differ, the largest differences, the first
//! [`EXAMPLES`] differing rows with both values.

use std::io::Write;
use std::path::Path;

use crate::columns::{cells, columns};
use crate::input::{Extent, Failure, Input, Rows, is_stdin, open, with_input};
use crate::repr::repr;
use crate::show::shape;
use crate::text;
use crate::value::{Float, Value};

/// Differing rows shown per column.
pub const EXAMPLES: usize = 5;

/// `np.testing.assert_allclose`'s tolerances (its defaults: `rtol` 1e-7,
/// `atol` 0).
#[derive(Clone, Copy)]
pub struct Tolerance {
    pub rtol: f64,
    pub atol: f64,
}

/// Compares the arrays in `a` and `b` (the member `member` of each that
/// is an archive, an `.npy` file being itself), prints the differences or a line saying they are equal, and
/// says whether they are equal. A failure names the file it is about.
pub fn diff(
    a: &Path,
    b: &Path,
    member: Option<&str>,
    tol: Tolerance,
    out: &mut impl Write,
) -> Result<bool, Failure> {
    if is_stdin(a) && is_stdin(b) {
        return Err(Failure::Usage(
            "standard input (-) can be only one of the two files".to_owned(),
        ));
    }
    let input_a = open(a).map_err(|f| blame(a, f))?;
    let input_b = open(b).map_err(|f| blame(b, f))?;
    // --member picks a member of each archive; an .npy file is itself
    let member_of = |input: &Input| match input {
        Input::Npz(_) => member,
        Input::Npy(_) | Input::Refused(_) => None,
    };
    let (member_a, member_b) = (member_of(&input_a), member_of(&input_b));
    // a failure inside `compare` is already blamed on its file: it comes
    // out as the value of the inner call, so that only failures of the
    // call itself are blamed on its file
    let outcome = with_input(input_a, member_a, Extent::Whole, |ra| {
        let inner = with_input(input_b, member_b, Extent::Whole, |rb| {
            Ok(compare(ra, rb, (a, b), tol, out))
        });
        Ok(inner.unwrap_or_else(|f| Err(blame(b, f))))
    });
    outcome.unwrap_or_else(|f| Err(blame(a, f)))
}

/// `failure` with the file it is about in front of its message.
fn blame(path: &Path, failure: Failure) -> Failure {
    let name = if is_stdin(path) {
        "(standard input)".to_owned()
    } else {
        path.display().to_string()
    };
    match failure {
        Failure::File(m) => Failure::File(format!("{name}: {m}")),
        Failure::Usage(m) => Failure::Usage(format!("{name}: {m}")),
        output => output,
    }
}

/// What was found in one column.
#[derive(Default)]
struct Tally {
    /// Rows whose values differ.
    rows: u64,
    /// The first few: row index, a's value, b's value.
    examples: Vec<(u64, String, String)>,
    /// The largest `|a - b|` and `|a - b| / |b|` among the differing
    /// numbers whose difference is finite (as numpy's "among violations").
    max_abs: f64,
    max_rel: f64,
}

fn compare(
    ra: &mut dyn Rows,
    rb: &mut dyn Rows,
    (a, b): (&Path, &Path),
    tol: Tolerance,
    out: &mut impl Write,
) -> Result<bool, Failure> {
    let (ha, hb) = (ra.header().clone(), rb.header().clone());
    if ha.shape != hb.shape {
        writeln!(out, "shape: {} vs {}", shape(&ha.shape), shape(&hb.shape))?;
        writeln!(out, "differ: shape")?;
        return Ok(false);
    }
    let (ca, cb) = (columns(&ha.descr, &ha.shape), columns(&hb.descr, &hb.shape));
    let names = |c: &[crate::columns::Column]| c.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    if names(&ca) != names(&cb) {
        writeln!(out, "dtype: {} vs {}", ha.descr, hb.descr)?;
        writeln!(out, "differ: field names")?;
        return Ok(false);
    }
    let mut equal = true;
    for (x, y) in ca.iter().zip(&cb) {
        if x.scalar != y.scalar {
            writeln!(out, "{}: dtype {} vs {}", x.name, x.scalar, y.scalar)?;
            equal = false;
        }
    }
    let mut tallies: Vec<Tally> = ca.iter().map(|_| Tally::default()).collect();
    for i in 0u64.. {
        let (va, vb) = match (ra.next_row(), rb.next_row()) {
            (None, None) => break,
            (Some(va), Some(vb)) => (va.map_err(|f| blame(a, f))?, vb.map_err(|f| blame(b, f))?),
            // the library reads as many rows as the (equal) shapes say
            _ => {
                return Err(Failure::File(
                    "internal error: one array ended early".to_owned(),
                ));
            }
        };
        for ((x, y), tally) in cells(&va).into_iter().zip(cells(&vb)).zip(&mut tallies) {
            let (same, gaps) = close(x, y, tol);
            if !same {
                if let Some((abs, rel)) = gaps {
                    tally.max_abs = tally.max_abs.max(abs);
                    tally.max_rel = tally.max_rel.max(rel);
                }
                tally.rows += 1;
                if tally.examples.len() < EXAMPLES {
                    tally.examples.push((i, text_of(x), text_of(y)));
                }
            }
        }
    }
    let rows = ha.shape.first().copied().unwrap_or(1);
    let differing = tallies.iter().filter(|t| t.rows > 0).count();
    for (column, tally) in ca.iter().zip(&tallies).filter(|(_, t)| t.rows > 0) {
        write!(
            out,
            "{}: {} of {rows} row(s) differ",
            column.name, tally.rows
        )?;
        if tally.max_abs > 0.0 {
            write!(
                out,
                ", max |a-b| {}, max |a-b|/|b| {}",
                rounded(tally.max_abs),
                rounded(tally.max_rel)
            )?;
        }
        writeln!(out)?;
        for (i, x, y) in &tally.examples {
            writeln!(out, "  [{i}] {x} vs {y}")?;
        }
        if tally.rows > tally.examples.len() as u64 {
            writeln!(out, "  ...")?;
        }
    }
    let tolerances = format!("rtol {}, atol {}", number(tol.rtol), number(tol.atol));
    if differing > 0 {
        writeln!(
            out,
            "differ: {differing} of {} column(s) ({tolerances})",
            ca.len()
        )?;
        return Ok(false);
    }
    if !equal {
        writeln!(out, "differ: dtype; the values are equal ({tolerances})")?;
        return Ok(false);
    }
    writeln!(
        out,
        "equal: shape {}, {} column(s) ({tolerances})",
        shape(&ha.shape),
        ca.len()
    )?;
    Ok(true)
}

/// A number's text, as numpy prints an `f8`.
fn number(x: f64) -> String {
    text::float(Float::F64(x))
}

/// A difference to 4 significant digits, as numpy prints an `f8`.
fn rounded(x: f64) -> String {
    number(format!("{x:.3e}").parse().unwrap_or(x))
}

/// A cell as numpy prints it.
fn text_of(value: &Value) -> String {
    let mut s = String::new();
    repr(value, false, &mut s);
    s
}

/// A number as the comparison sees it.
enum Num {
    Int(i128),
    Complex(f64, f64),
}

fn num(value: &Value) -> Option<Num> {
    let f = |x: Float| match x {
        Float::F16(v) | Float::F32(v) => f64::from(v),
        Float::F64(v) => v,
    };
    Some(match value {
        Value::Int(i) => Num::Int(i128::from(*i)),
        Value::UInt(u) => Num::Int(i128::from(*u)),
        Value::Float(x) => Num::Complex(f(*x), 0.0),
        Value::Complex(re, im) => Num::Complex(f(*re), f(*im)),
        _ => return None,
    })
}

/// Whether `a` and `b` are close (numbers) or equal (everything else), and
/// for numbers with a finite difference `|a - b|` and `|a - b| / |b|`.
fn close(a: &Value, b: &Value, tol: Tolerance) -> (bool, Option<(f64, f64)>) {
    let (x, y) = match (num(a), num(b)) {
        (Some(Num::Int(x)), Some(Num::Int(y))) => {
            if x == y {
                return (true, Some((0.0, 0.0)));
            }
            // exact difference, rounded once
            let d = (x - y).unsigned_abs() as f64;
            let mag = y.unsigned_abs() as f64;
            return (d <= tol.atol + tol.rtol * mag, Some((d, d / mag)));
        }
        (Some(x), Some(y)) => (complex(x), complex(y)),
        _ => return (a == b, None),
    };
    let nan = |(re, im): (f64, f64)| re.is_nan() || im.is_nan();
    if nan(x) || nan(y) {
        return (nan(x) && nan(y), None);
    }
    let infinite = |(re, im): (f64, f64)| re.is_infinite() || im.is_infinite();
    if infinite(x) || infinite(y) {
        return (x == y, None);
    }
    let d = (x.0 - y.0).hypot(x.1 - y.1);
    let mag = y.0.hypot(y.1);
    (d <= tol.atol + tol.rtol * mag, Some((d, d / mag)))
}

fn complex(n: Num) -> (f64, f64) {
    match n {
        Num::Int(i) => (i as f64, 0.0),
        Num::Complex(re, im) => (re, im),
    }
}
