//! One array element over exactly its bytes: a record (a map keyed by field
//! name, padding skipped), a subarray (nested sequences) or a scalar
//! ([`ElementDe`]); a record's field, read in order or by name ([`FieldDe`]:
//! the field and its record, two words); an element of a run (a row of a 1-d array,
//! a number of a subarray) or of a stream by reference ([`RowDe`], one
//! word).

use std::hash::{DefaultHasher, Hash, Hasher};

use serde::de::{self, IntoDeserializer, Visitor};

use super::array::{ArrayDe, FIELD_RUN, SUBARRAY_RUN, run_seq};
use super::bulk_offer;
use super::plan::{ByPosition, Fast, Found, Kind, PField, Plan, Reads};
use super::scalar::ScalarDe;
use super::seq::Elements;
use super::{Bytes, Cfg, fix_error, internal};
use crate::array::nd::Order;
use crate::error::{Error, Result};
use crate::format::dtype::Plain;

/// One element of `dtype`: the first `dtype.itemsize()` of `bytes`.
///
/// A record field's bytes run on to the end of its record (one bounds
/// check per field instead of two; the fast scalar paths read their fixed
/// width from the front); every other path takes [`ElementDe::exact`].
#[derive(Clone, Copy)]
pub(crate) struct ElementDe<'a, 'de> {
    dtype: &'a Plan,
    bytes: Bytes<'de, 'a>,
    cfg: Cfg,
    /// `dtype.fast`, carried by value: a run of scalars reads it from the
    /// plan once, not once per element.
    fast: Fast,
}

impl<'de, 'a> ElementDe<'a, 'de> {
    #[inline(always)]
    pub(crate) fn new(dtype: &'a Plan, bytes: Bytes<'de, 'a>, cfg: Cfg) -> Self {
        ElementDe {
            dtype,
            bytes,
            cfg,
            fast: dtype.fast,
        }
    }

    /// The same element over other bytes.
    #[cfg(feature = "rayon")]
    #[inline(always)]
    pub(crate) fn set_bytes(&mut self, bytes: Bytes<'de, 'a>) {
        self.bytes = bytes;
    }

    /// The same element over the next bytes of its run (of the same
    /// input: see [`Bytes::move_to`]).
    #[inline(always)]
    pub(crate) fn next_of_run(&mut self, bytes: Bytes<'de, 'a>) {
        self.bytes.move_to(bytes);
    }

    /// Exactly the element's bytes.
    #[inline]
    fn exact(&self) -> Result<Bytes<'de, 'a>> {
        self.bytes.range(0, self.dtype.size)
    }

    /// Offers the element to an `NdArray` (see `super::nd`): a subarray
    /// with its dims, anything else as a 0-d array.
    #[inline(never)]
    fn offer_nd<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (plan, dims): (&Plan, &[u64]) = match &self.dtype.kind {
            Kind::Sub(base, dims, _) => (base, dims),
            _ => (self.dtype, &[]),
        };
        ArrayDe::new(plan, dims, self.exact()?, self.cfg, false).offer_nd(Order::C, visitor)
    }

    #[inline(always)]
    fn fix(&self, e: Error) -> Error {
        fix_found(e, self.dtype)
    }

    /// The plan's [`Fast`] tag (carried by value) and the plan, for
    /// [`fast_scalar!`].
    #[inline(always)]
    fn tags(&self) -> (Fast, &'a Plan) {
        (self.fast, self.dtype)
    }

    /// The element's first `N` bytes, for [`fast_scalar!`].
    #[inline(always)]
    fn chunk<const N: usize>(&self) -> Option<&[u8; N]> {
        self.bytes.slice().first_chunk::<N>()
    }

    /// The general path of the numeric methods: the scalar with its
    /// conversions and checks, or the self-describing presentation of a
    /// record or subarray. Out of line (and cold: the fast paths are the
    /// likely branch) so the fast path stays small.
    #[cold]
    #[inline(never)]
    fn general<V: Visitor<'de>>(
        self,
        visitor: V,
        f: impl FnOnce(ScalarDe<'a, 'de>, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        self.scalar(visitor, f)
    }

    /// `f` on the scalar's [`ScalarDe`]; a record or subarray
    /// self-describing.
    #[inline]
    fn scalar<V: Visitor<'de>>(
        self,
        visitor: V,
        f: impl FnOnce(ScalarDe<'a, 'de>, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        match &self.dtype.kind {
            Kind::Scalar(s) => f(ScalarDe::new(*s, self.exact()?, self.cfg), visitor),
            _ => de::Deserializer::deserialize_any(self, visitor),
        }
    }

    /// The record as a map of its fields by name; with `proving`, the
    /// type's key and field list, whose proof this read settles
    /// ([`ByPosition`]).
    #[inline]
    fn record_map<V: Visitor<'de>>(
        &self,
        r: &'a [PField],
        proving: Option<(usize, &'static [&'static str])>,
        visitor: V,
    ) -> Result<V::Value> {
        let mut map = RecordMap {
            fields: r.iter(),
            value: None,
            record: self,
            keys: proving.map(|_| Keys::default()),
        };
        let v = match visitor.visit_map(&mut map) {
            Ok(v) => v,
            Err(e) => return Err(record_error(e, self.dtype, r)),
        };
        if let (Some((key, fields)), Some(keys)) = (proving, map.keys) {
            settle(self.dtype, r, key, fields, keys);
        }
        Ok(v)
    }

    /// The record as the sequence of all its fields, each of which the
    /// type must take: the hot path of a proven type (every other
    /// positional read is [`Elements::Fields`]).
    #[inline]
    fn record_seq<V: Visitor<'de>>(&self, r: &'a [PField], visitor: V) -> Result<V::Value> {
        let mut seq = RecordSeq {
            fields: r.iter(),
            record: self,
        };
        let v = visitor.visit_seq(&mut seq).map_err(|e| self.fix(e))?;
        seq.end(r.len()).map(|()| v)
    }

    /// `deserialize_struct` without a proof for the type of `key`
    /// ([`ByPosition`]): by name, trying the proof once. Out of line, so
    /// the positional read is all that is inlined.
    #[cold]
    #[inline(never)]
    fn struct_by_name<V: Visitor<'de>>(
        self,
        key: usize,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match &self.dtype.kind {
            Kind::Record(r) if self.dtype.by_position.untried(key) => {
                self.record_map(r, Some((key, fields)), visitor)
            }
            _ => self.compound(visitor),
        }
    }

    /// `deserialize_struct`, the element by reference (a row's is the
    /// run's, [`RowDe`]).
    #[inline]
    fn record<V: Visitor<'de>>(
        &self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        // By name (a map) until one record proved the type's field list
        // names some of this record's fields in order (`ByPosition`); then
        // by position, without matching a name per field. The key is taken
        // here and handed down: a type name's address is the same at one
        // place in the code, not necessarily at two.
        let key = ByPosition::key::<V>();
        match &self.dtype.kind {
            Kind::Record(r) => match self.dtype.by_position.holds(key) {
                // the proven list names all of the fields: a derived
                // type's list is a constant, so on this branch the
                // compiler knows how many fields there are (no end test
                // per field, none after the visit)
                Some(Reads::All) if r.len() == fields.len() => self.record_seq(r, visitor),
                Some(reads) => self.struct_picked(r, reads, visitor),
                None => self.struct_by_name(key, fields, visitor),
            },
            _ => self.struct_by_name(key, fields, visitor),
        }
    }

    /// `deserialize_struct` with a proof for the type whose field list
    /// is not the record's length (some fields, or another list under
    /// the same type): by position, out of line, as [`Elements`] (the
    /// sequence type every cold presentation shares).
    #[cold]
    #[inline(never)]
    fn struct_picked<V: Visitor<'de>>(
        self,
        r: &'a [PField],
        reads: Reads<'_>,
        visitor: V,
    ) -> Result<V::Value> {
        let fields = match reads {
            Reads::All => Fields::All(r.iter()),
            Reads::Some(at) => Fields::Picked { at: at.iter(), r },
        };
        self.fields(fields).visit(visitor)
    }

    /// These of the record's fields as [`Elements`].
    fn fields<'r>(&'r self, fields: Fields<'a>) -> Elements<'r, 'a, 'de> {
        let total = fields.len();
        Elements::Fields(
            RecordSeq {
                fields,
                record: self,
            },
            total,
        )
    }

    /// The element for a sequence request off the hot path, as
    /// [`Elements`]: a record's fields, a subarray's elements, a scalar's
    /// parts (or, for a number or a string, the refusal that `expected`
    /// words: see [`ScalarDe::compound`]). Not generic: what is left per
    /// visitor is [`Elements::visit`].
    #[inline(never)]
    fn elements<'r>(&'r self, expected: &dyn de::Expected) -> Result<Elements<'r, 'a, 'de>> {
        match &self.dtype.kind {
            Kind::Record(r) => Ok(self.fields(Fields::All(r.iter()))),
            Kind::Sub(base, dims, _) => {
                ArrayDe::new(base, dims, self.exact()?, self.cfg, false).elements()
            }
            Kind::Scalar(s) => ScalarDe::new(*s, self.exact()?, self.cfg).compound_parts(expected),
        }
    }

    /// `deserialize_seq` on anything but a run of scalars: out of line,
    /// so the run's loop is the only place its visitor is inlined.
    #[inline(never)]
    pub(crate) fn seq_general<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.elements(&visitor)?.visit(visitor)
    }

    /// A map or struct request that is no record's: a scalar's compound
    /// presentation ([`ScalarDe::compound`]), a subarray's elements; a
    /// record by name.
    fn compound<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match &self.dtype.kind {
            Kind::Record(r) => self.record_map(r, None, visitor),
            _ => self.elements(&visitor)?.visit(visitor),
        }
    }
}

/// A by-name read's error: serde's wording fixed, the record's fields
/// listed (not generic: one copy whatever the type).
#[cold]
#[inline(never)]
fn record_error(e: Error, plan: &Plan, r: &[PField]) -> Error {
    fix_found(e, plan).listing_what_is_there("the record", &mut r.iter().map(|f| &*f.name))
}

/// Settles the proof of the type of `key` (field list `fields`) that a
/// by-name read of record `r` made with these `keys` ([`ByPosition`]).
#[inline(never)]
fn settle(plan: &Plan, r: &[PField], key: usize, fields: &[&str], keys: Keys) {
    let at = keys.order(r, fields);
    // as many (increasing) positions as fields: all of them, in order
    let reads = at.as_deref().map(|at| {
        if at.len() == r.len() {
            Reads::All
        } else {
            Reads::Some(at)
        }
    });
    plan.by_position.settle(key, reads);
}

/// A type read by position left `left` of the record's `total` fields.
#[cold]
#[inline(never)]
fn fields_left(total: usize, left: usize) -> Error {
    Error::mismatch(format!(
        "the type takes only {} of the {total} fields of the record",
        // left <= total: what is left of the iterator
        total.saturating_sub(left),
    ))
}

/// The numeric methods of [`ElementDe`], [`FieldDe`] and [`RowDe`] (each
/// gives `tags`, `chunk` and `general`, a row its element's): when the plan's [`Fast`] tag says the
/// file's type is exactly the asked one in little-endian order, one load
/// and one visit; when its `swapped` tag says so for big-endian order, one
/// byte-swapping load and one visit (checked only after the first tag
/// missed, so a little-endian file's hot path is one compare; read from
/// the plan rather than carried by value like `fast`, which would make
/// every element of a record one field larger); anything else (other
/// types, conversions, records: `general`) goes out of line.
macro_rules! fast_scalar {
    ($($m:ident $tag:ident $t:ty, $visit:ident $(!= $zero:literal)?;)*) => {$(
        #[inline]
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let (fast, plan) = self.tags();
            if fast == Some(Plain::$tag) {
                if let Some(a) = self.chunk() {
                    let x = <$t>::from_le_bytes(*a) $(!= $zero)?;
                    return visitor.$visit(x).map_err(|e| fix_found(e, plan));
                }
            }
            if plan.swapped == Some(Plain::$tag) {
                if let Some(a) = self.chunk() {
                    let x = <$t>::from_be_bytes(*a) $(!= $zero)?;
                    return visitor.$visit(x).map_err(|e| fix_found(e, plan));
                }
            }
            self.general(visitor, |d, v| d.$m(v))
        }
    )*};
}

/// The numeric methods, [`fast_scalar!`] for the plain numbers.
macro_rules! fast_numbers {
    () => {
        fast_scalar! {
            deserialize_bool Bool u8, visit_bool != 0;
            deserialize_i8 I8 i8, visit_i8;
            deserialize_i16 I16 i16, visit_i16;
            deserialize_i32 I32 i32, visit_i32;
            deserialize_i64 I64 i64, visit_i64;
            deserialize_u8 U8 u8, visit_u8;
            deserialize_u16 U16 u16, visit_u16;
            deserialize_u32 U32 u32, visit_u32;
            deserialize_u64 U64 u64, visit_u64;
            deserialize_f32 F32 f32, visit_f32;
            deserialize_f64 F64 f64, visit_f64;
        }
    };
}

/// A visitor's error, serde's wording fixed to name what `plan` is.
#[cold]
#[inline(never)]
fn fix_found(e: Error, plan: &Plan) -> Error {
    fix_error(e, &Found(plan))
}

impl<'de> de::Deserializer<'de> for ElementDe<'_, 'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match &self.dtype.kind {
            Kind::Scalar(s) => ScalarDe::new(*s, self.exact()?, self.cfg).deserialize_any(visitor),
            Kind::Sub(..) => self.elements(&visitor)?.visit(visitor),
            Kind::Record(r) => self.record_map(r, None, visitor),
        }
    }

    de_methods!(via(#[inline] scalar) deserialize_i128 deserialize_u128 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf);
    de_methods!(via(scalar) deserialize_enum);

    fast_numbers!();

    de_methods!(some);

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match &self.dtype.kind {
            Kind::Record(r) if r.is_empty() => visitor.visit_unit(),
            _ => self.deserialize_any(visitor),
        }
    }

    de_methods!(to(deserialize_unit) deserialize_unit_struct);

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == crate::kinds::special::NDARRAY {
            return self.offer_nd(visitor);
        }
        if let Some(token) = &self.dtype.token {
            if name == &**token {
                if let Some(a) = self.bytes.slice().first_chunk::<8>() {
                    // the file's own unit: the count needs no conversion
                    let count = i64::from_le_bytes(*a);
                    return visitor
                        .visit_newtype_struct(count.into_deserializer())
                        .map_err(|e| self.fix(e));
                }
            }
        }
        match &self.dtype.kind {
            Kind::Scalar(s) => {
                ScalarDe::new(*s, self.exact()?, self.cfg).deserialize_newtype_struct(name, visitor)
            }
            Kind::Sub(..) if name == crate::kinds::special::BULK => match &self.dtype.bulk {
                Some(key) => bulk_offer::offer(key, self, visitor),
                None => visitor.visit_newtype_struct(self),
            },
            _ if name == crate::kinds::special::PADDING => visitor.visit_unit(),
            _ if crate::kinds::special::is_token(name) => self.deserialize_any(visitor),
            _ => visitor.visit_newtype_struct(self),
        }
    }

    #[inline(always)]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Kind::Sub(base, _, true) = &self.dtype.kind {
            return run_seq::<V, SUBARRAY_RUN>(base, self.exact()?, self.cfg, false, visitor);
        }
        self.seq_general(visitor)
    }

    de_methods!(to(#[inline(always)] deserialize_seq) deserialize_tuple);
    de_methods!(to(#[inline] deserialize_seq) deserialize_tuple_struct);

    #[inline(always)]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        crate::kinds::special::refuse_ndarray_form(name, fields)?;
        self.record(fields, visitor)
    }

    de_methods!(ignored);
    de_methods!(to(compound) deserialize_map);
    serde::forward_to_deserialize_any! { identifier }
}

impl<'de> bulk_offer::Raw<'de> for ElementDe<'_, 'de> {
    /// The subarray's bytes (exactly its own: a record field's bytes run on
    /// to the end of the record), borrowed when the input is.
    fn raw<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.exact()?.visit(visitor)
    }
}

/// A record as a map: keys are the field names from the dtype (file order),
/// values the fields at their fixed offsets ([`FieldDe`], as a record read
/// in order hands them).
struct RecordMap<'r, 'a, 'de> {
    fields: std::slice::Iter<'a, PField>,
    value: Option<&'a PField>,
    record: &'r ElementDe<'a, 'de>,
    /// While proving [`ByPosition`]: the keys the type made of the names.
    keys: Option<Keys>,
}

/// The keys a type's field identifier made of a record's names, as far as
/// they can be told apart: each key's enum discriminant, hashed, and
/// whether all had one type. A derive's field identifier is one enum with
/// a variant per field, aliases sharing their field's variant; a key that
/// is not an enum has no discriminant of its own (`std::mem::discriminant`
/// gives every value of such a type the same one in practice), so a type
/// keyed by strings stays by name.
#[derive(Default)]
struct Keys {
    seen: Vec<u64>,
    ty: Option<&'static str>,
    mixed: bool,
}

impl Keys {
    #[cold]
    #[inline(never)]
    fn note<K>(&mut self, key: &K) {
        let mut h = DefaultHasher::new();
        std::mem::discriminant(key).hash(&mut (&mut h as &mut dyn Hasher));
        let ty = std::any::type_name::<K>();
        self.mixed |= self.ty.is_some_and(|t| t != ty);
        self.ty = Some(ty);
        self.seen.push(h.finish());
    }

    /// What the read proved of `fields` for record `r`: the positions of
    /// the record's fields the list names, when it names them in the
    /// record's order and their keys (one type) are all different.
    fn order(self, r: &[PField], fields: &[&str]) -> Option<Vec<usize>> {
        if self.mixed || self.seen.len() != r.len() {
            return None;
        }
        let mut order = Vec::with_capacity(fields.len());
        let mut keys = Vec::with_capacity(fields.len());
        let mut from = r.iter().zip(&self.seen).enumerate();
        for name in fields {
            let (j, (_, key)) = from.find(|(_, (f, _))| *f.name == **name)?;
            order.push(j);
            keys.push(*key);
        }
        keys.sort_unstable();
        keys.dedup();
        (keys.len() == order.len()).then_some(order)
    }
}

impl<'de> de::MapAccess<'de> for RecordMap<'_, '_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(field) = self.fields.next() else {
            return Ok(None);
        };
        self.value = Some(field);
        let key = seed
            .deserialize(de::value::StrDeserializer::<Error>::new(&field.name))
            .map_err(|e| e.in_field(&field.name))?;
        if let Some(keys) = &mut self.keys {
            keys.note(&key);
        }
        Ok(Some(key))
    }

    #[inline]
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let field = self.value.take().ok_or_else(internal)?;
        let de = FieldDe {
            field,
            record: self.record,
        };
        seed.deserialize(de).map_err(|e| e.in_field(&field.name))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

/// A record's fields off the hot path ([`Elements::Fields`]): all of
/// them, or those of `r` at positions `at` (proven to be in it).
pub(crate) enum Fields<'a> {
    All(std::slice::Iter<'a, PField>),
    Picked {
        at: std::slice::Iter<'a, usize>,
        r: &'a [PField],
    },
}

impl<'a> Iterator for Fields<'a> {
    type Item = &'a PField;

    #[inline]
    fn next(&mut self) -> Option<&'a PField> {
        match self {
            Fields::All(it) => it.next(),
            Fields::Picked { at, r } => at.next().and_then(|&i| r.get(i)),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Fields::All(it) => it.size_hint(),
            Fields::Picked { at, .. } => at.size_hint(),
        }
    }
}

/// Its size hint is exact (a slice iterator's).
impl ExactSizeIterator for Fields<'_> {}

/// A record as a sequence of its fields in file order (tuples, tuple
/// structs, and structs by position: there some fields may be left out).
pub(crate) struct RecordSeq<'r, 'a, 'de, I> {
    fields: I,
    /// The record, which each of its fields' [`FieldDe`] refers to (so a
    /// field's deserializer is two words).
    record: &'r ElementDe<'a, 'de>,
}

impl<'a, I: ExactSizeIterator<Item = &'a PField>> RecordSeq<'_, 'a, '_, I> {
    /// Whether the type took every one of the `total` fields.
    #[inline]
    pub(crate) fn end(&self, total: usize) -> Result<()> {
        match self.fields.len() {
            0 => Ok(()),
            left => Err(fields_left(total, left)),
        }
    }

    /// A visitor's error on the record, with serde's wording fixed.
    pub(crate) fn failed(&self, e: Error) -> Error {
        self.record.fix(e)
    }
}

impl<'de, 'a, I> de::SeqAccess<'de> for RecordSeq<'_, 'a, 'de, I>
where
    I: ExactSizeIterator<Item = &'a PField>,
{
    type Error = Error;

    #[inline]
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        let Some(field) = self.fields.next() else {
            return Ok(None);
        };
        let de = FieldDe {
            field,
            record: self.record,
        };
        match seed.deserialize(de) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(e.in_field(&field.name)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

/// One field of a record, read in order ([`RecordSeq`]) or by name
/// ([`RecordMap`]): the field and its record's element (by reference), two words, so making one is free and
/// it is passed in registers. The hot methods (the fast numbers of [`fast_scalar!`], a
/// one-axis run of scalars) read at the field's offset here; every other
/// method is [`ElementDe`]'s over the field's bytes, out of line
/// ([`field_general`]) or inlined ([`FieldDe::element`]).
pub(crate) struct FieldDe<'a, 'r, 'de> {
    field: &'a PField,
    record: &'r ElementDe<'a, 'de>,
}

impl<'de, 'a> FieldDe<'a, '_, 'de> {
    /// The field as an [`ElementDe`]: from the field to the end of the
    /// record (the element reads its own size from the front,
    /// [`ElementDe::exact`]; a field of a checked dtype always fits).
    #[inline(always)]
    fn element(self) -> Result<ElementDe<'a, 'de>> {
        let bytes = self.record.bytes;
        let field = bytes.range(self.field.offset, bytes.len())?;
        Ok(ElementDe::new(&self.field.plan, field, self.record.cfg))
    }

    /// The field plan's [`Fast`] tag and the plan, for [`fast_scalar!`].
    #[inline(always)]
    fn tags(&self) -> (Fast, &'a Plan) {
        (self.field.plan.fast, &self.field.plan)
    }

    /// [`field_general`], for [`fast_scalar!`].
    #[inline(always)]
    fn general<V: Visitor<'de>>(
        self,
        visitor: V,
        f: impl FnOnce(ElementDe<'a, 'de>, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        field_general(self.field, self.record, visitor, f)
    }

    /// The `N` bytes at the field's offset, when the record holds them
    /// (called only with a [`Fast`] tag, so `near` is the offset).
    #[inline(always)]
    fn chunk<const N: usize>(&self) -> Option<&[u8; N]> {
        let at = usize::try_from(self.field.near).ok()?;
        // 32 bits plus a number's width: no overflow, one compare
        let end = at.checked_add(N)?;
        self.record.bytes.slice().get(at..end)?.first_chunk::<N>()
    }
}

/// A method of [`ElementDe`] over `field` of a record with these bytes
/// and options: what the fast paths of [`FieldDe`] do not take, out of
/// line (and cold: the fast paths are the likely branch), its arguments
/// two words in registers.
#[cold]
#[inline(never)]
fn field_general<'de, 'a, V: Visitor<'de>>(
    field: &'a PField,
    record: &ElementDe<'a, 'de>,
    visitor: V,
    f: impl FnOnce(ElementDe<'a, 'de>, V) -> Result<V::Value>,
) -> Result<V::Value> {
    f(FieldDe { field, record }.element()?, visitor)
}

impl<'de> de::Deserializer<'de> for FieldDe<'_, '_, 'de> {
    type Error = Error;

    fast_numbers!();

    #[inline(always)]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let plan = &self.field.plan;
        if let Kind::Sub(base, _, true) = &plan.kind {
            // exactly the field's bytes
            let cfg = self.record.cfg;
            return run_seq::<V, FIELD_RUN>(base, self.element()?.exact()?, cfg, false, visitor);
        }
        self.general(visitor, |d, v| d.seq_general(v))
    }

    de_methods!(to(#[inline(always)] deserialize_seq) deserialize_tuple);
    de_methods!(to(#[inline] deserialize_seq) deserialize_tuple_struct);

    de_methods!(ignored);
    de_methods!(forward(element()?) deserialize_any deserialize_newtype_struct
        deserialize_struct deserialize_option deserialize_unit deserialize_unit_struct
        deserialize_enum deserialize_i128 deserialize_u128 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_map
        deserialize_identifier);
}

/// An [`ElementDe`] by reference: an element handed out by its run
/// (`super::array::run_seq`) or a row of a stream, one word; its fast
/// numbers read it in place (it is not copied). Every method is the
/// element's; a record is read from the reference ([`ElementDe::record`]).
pub(crate) struct RowDe<'r, 'a, 'de>(pub(crate) &'r ElementDe<'a, 'de>);

/// The element's [`Fast`] tag and plan, first bytes and general path, for
/// [`fast_scalar!`] (the element is copied on the general path only, out of
/// line).
impl<'a, 'de> std::ops::Deref for RowDe<'_, 'a, 'de> {
    type Target = ElementDe<'a, 'de>;

    #[inline(always)]
    fn deref(&self) -> &ElementDe<'a, 'de> {
        self.0
    }
}

impl<'de> de::Deserializer<'de> for RowDe<'_, '_, 'de> {
    type Error = Error;

    // read through the reference (the element is not copied)
    fast_numbers!();

    de_methods!(forward(0) deserialize_any deserialize_i128 deserialize_u128
        deserialize_char deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_map deserialize_identifier
        deserialize_ignored_any deserialize_seq deserialize_unit_struct deserialize_newtype_struct
        deserialize_tuple deserialize_tuple_struct deserialize_enum);

    #[inline(always)]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        crate::kinds::special::refuse_ndarray_form(name, fields)?;
        self.0.record(fields, visitor)
    }
}
