//! Round trips that lose nothing: numpy's bytes read into a generic value
//! and written back are the same bytes (every numpy fixture, and a property
//! over random dtypes and data), NaN payloads through the write side's
//! conversions, and datetime text as numpy prints it.

mod datetime_text;
mod props;
mod value;
mod values;
