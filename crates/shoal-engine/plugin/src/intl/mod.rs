//! `Intl` for Shoal Functions, native half: locale data and formatting
//! behind `globalThis.__shoal_intl` ([`js`]), for every locale and time zone
//! Node.js (full ICU) has.
//!
//! The CLDR data is Node's own (ICU 78.3, CLDR 48), compiled by
//! `data/gen.mjs` from the ICU data inside the Node.js 24 binary into
//! `data/icu.bin`, which is `include_bytes!`d: it is read-only data of the
//! engine module, mapped copy-on-write and shared by every sandbox.
//! ICU4X supplies the algorithms with their own data (collation,
//! segmentation, plural rules, calendars, likely subtags), `jiff` the time
//! zone database (tzdb 2026c, as Node 24 has it).
//!
//! What is ported from ICU4C (the parts of ICU that decide Node's output
//! and that ICU4X does differently): DateTimePatternGenerator ([`dtpg`]),
//! SimpleDateFormat's fields and time zone names ([`datefmt`], [`tz`]),
//! DateIntervalFormat ([`interval`]), the number formatter and range
//! formatter ([`number`]), and V8's option resolution ([`dtf`], [`locale`]).

pub mod collator;
pub mod data;
pub mod datefmt;
pub mod dtf;
pub mod dtpg;
pub mod interval;
pub mod js;
pub mod locale;
pub mod names;
pub mod number;
pub mod plural;
pub mod segmenter;
pub mod tz;
