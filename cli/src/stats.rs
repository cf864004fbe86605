//! `npy stats`: count, NaN count, min, max, mean and standard deviation of
//! every numeric column (columns named as `npy csv` names them, see
//! [`crate::columns`]), in one pass over the rows.
//!
//! Choices, as numpy's `nanmin`/`nanmax`/`nanmean`/`nanstd` make them:
//! `count` is every value, NaN included; `nan` the NaNs among them; min,
//! max, mean and std are over the values that are not NaN (infinities
//! included: a mean of `inf`, a std of `nan`). std has ddof 0 (numpy's
//! default). Mean and std are computed in `f64` by Welford's method (one
//! pass, stable); min and max are the stored values, exact (integers of
//! any size, floats in their own width). `b1` counts as 0/1 (min and max
//! print `False`/`True`, the mean is the share of `True`). A complex
//! column is two, `z.real` and `z.imag`. `S`, `U`, `V`, datetimes and
//! timedeltas are not numeric: they are listed as skipped under the table.

use std::io::Write;

use npy_serde::ScalarType;

use crate::columns::{Column, cells, columns};
use crate::input::{Failure, Rows, for_each_row};
use crate::text;
use crate::value::{Float, Value};

/// Prints the statistics of `reader`'s array.
pub fn stats(reader: &mut dyn Rows, out: &mut impl Write) -> Result<(), Failure> {
    let header = reader.header();
    let all = columns(&header.descr, &header.shape);
    let mut accs: Vec<Acc> = Vec::new();
    let mut slots = Vec::with_capacity(all.len());
    let mut skipped: Vec<&Column> = Vec::new();
    for column in &all {
        let slot = match column.scalar.ty() {
            ScalarType::Bool | ScalarType::Int(_) | ScalarType::UInt(_) | ScalarType::Float(_) => {
                accs.push(Acc::new(column.name.clone(), column));
                Slot::One(accs.len() - 1)
            }
            ScalarType::Complex(_) => {
                accs.push(Acc::new(format!("{}.real", column.name), column));
                accs.push(Acc::new(format!("{}.imag", column.name), column));
                Slot::Two(accs.len() - 2)
            }
            _ => {
                skipped.push(column);
                Slot::Skip
            }
        };
        slots.push(slot);
    }
    for_each_row(reader, u64::MAX, |_, value| {
        for (cell, slot) in cells(&value).into_iter().zip(&slots) {
            match (slot, cell) {
                (Slot::One(i), _) => accs.get_mut(*i).into_iter().for_each(|a| a.add(cell)),
                (Slot::Two(i), Value::Complex(re, im)) => {
                    if let Some([a, b]) = accs.get_mut(*i..*i + 2) {
                        a.add(&Value::Float(*re));
                        b.add(&Value::Float(*im));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    })?;
    if accs.is_empty() {
        writeln!(out, "no numeric column")?;
    } else {
        table(&accs, out)?;
    }
    if !skipped.is_empty() {
        let list: Vec<String> = skipped
            .iter()
            .map(|c| format!("{} ({})", c.name, c.scalar))
            .collect();
        writeln!(out, "not numeric, skipped: {}", list.join(", "))?;
    }
    Ok(())
}

/// Where a column's cells go: one accumulator, two (a complex column's
/// real and imaginary parts, in a row), none.
enum Slot {
    One(usize),
    Two(usize),
    Skip,
}

/// The smallest or largest value seen, as stored.
#[derive(Clone, Copy)]
enum Extreme {
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(Float, f64),
}

impl Extreme {
    /// Whether `self` is below `other` (both of the column's type).
    fn below(self, other: Extreme) -> bool {
        match (self, other) {
            (Extreme::Bool(a), Extreme::Bool(b)) => !a & b,
            (Extreme::Int(a), Extreme::Int(b)) => a < b,
            (Extreme::UInt(a), Extreme::UInt(b)) => a < b,
            (Extreme::Float(_, a), Extreme::Float(_, b)) => a < b,
            _ => false,
        }
    }

    fn text(self) -> String {
        match self {
            Extreme::Bool(b) => (if b { "True" } else { "False" }).to_owned(),
            Extreme::Int(i) => i.to_string(),
            Extreme::UInt(u) => u.to_string(),
            Extreme::Float(x, _) => text::float(x),
        }
    }
}

/// One column's running statistics.
struct Acc {
    name: String,
    ty: String,
    count: u64,
    nan: u64,
    /// Values that are not NaN.
    n: u64,
    /// Whether an infinity of either sign was among them.
    pos_inf: bool,
    neg_inf: bool,
    /// The finite values: their count, their mean and the sum of squared
    /// deviations from it (Welford).
    finite: u64,
    mean: f64,
    m2: f64,
    min: Option<Extreme>,
    max: Option<Extreme>,
}

impl Acc {
    fn new(name: String, column: &Column) -> Acc {
        Acc {
            name,
            ty: column.scalar.to_string(),
            count: 0,
            nan: 0,
            n: 0,
            pos_inf: false,
            neg_inf: false,
            finite: 0,
            mean: 0.0,
            m2: 0.0,
            min: None,
            max: None,
        }
    }

    fn add(&mut self, cell: &Value) {
        let (x, extreme) = match cell {
            Value::Bool(b) => (f64::from(u8::from(*b)), Extreme::Bool(*b)),
            // as f64: rounded beyond 2^53, for the mean and std only
            Value::Int(i) => (*i as f64, Extreme::Int(*i)),
            Value::UInt(u) => (*u as f64, Extreme::UInt(*u)),
            Value::Float(f) => {
                let x = match *f {
                    Float::F16(v) | Float::F32(v) => f64::from(v),
                    Float::F64(v) => v,
                };
                (x, Extreme::Float(*f, x))
            }
            _ => return,
        };
        self.count += 1;
        if x.is_nan() {
            self.nan += 1;
            return;
        }
        self.n += 1;
        if x.is_infinite() {
            // kept out of the running sums, which it would make NaN
            if x > 0.0 {
                self.pos_inf = true;
            } else {
                self.neg_inf = true;
            }
        } else {
            self.finite += 1;
            let delta = x - self.mean;
            self.mean += delta / self.finite as f64;
            self.m2 += delta * (x - self.mean);
        }
        if self.min.is_none_or(|m| extreme.below(m)) {
            self.min = Some(extreme);
        }
        if self.max.is_none_or(|m| m.below(extreme)) {
            self.max = Some(extreme);
        }
    }

    /// The mean and the standard deviation (ddof 0) of the values that are
    /// not NaN, as numpy's `nanmean` and `nanstd` give them where there are
    /// infinities (a mean of `inf`, `-inf` or, with both, `nan`; a std of
    /// `nan`); `None` when there are none.
    fn moments(&self) -> Option<(f64, f64)> {
        if self.n == 0 {
            return None;
        }
        Some(match (self.pos_inf, self.neg_inf) {
            (false, false) => (self.mean, (self.m2 / self.finite as f64).sqrt()),
            (true, false) => (f64::INFINITY, f64::NAN),
            (false, true) => (f64::NEG_INFINITY, f64::NAN),
            (true, true) => (f64::NAN, f64::NAN),
        })
    }
}

/// The table: names and types left-aligned, numbers right-aligned; `-`
/// where a column has no value that is not NaN.
fn table(accs: &[Acc], out: &mut impl Write) -> Result<(), Failure> {
    let mut rows: Vec<[String; 8]> = vec![
        [
            "column", "type", "count", "nan", "min", "max", "mean", "std",
        ]
        .map(str::to_owned),
    ];
    for acc in accs {
        let dash = || "-".to_owned();
        let (mean, std) = match acc.moments() {
            Some((m, s)) => (text::float(Float::F64(m)), text::float(Float::F64(s))),
            None => (dash(), dash()),
        };
        rows.push([
            acc.name.clone(),
            acc.ty.clone(),
            acc.count.to_string(),
            acc.nan.to_string(),
            acc.min.map_or_else(dash, Extreme::text),
            acc.max.map_or_else(dash, Extreme::text),
            mean,
            std,
        ]);
    }
    let mut widths = [0usize; 8];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for row in &rows {
        let mut line = String::new();
        for (i, (cell, w)) in row.iter().zip(widths).enumerate() {
            let pad = " ".repeat(w - cell.chars().count());
            if i > 0 {
                line.push_str("  ");
            }
            if i < 2 {
                line.push_str(cell);
                line.push_str(&pad);
            } else {
                line.push_str(&pad);
                line.push_str(cell);
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}
