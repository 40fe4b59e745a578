//! ICU's DateTimePatternGenerator (icu4c `dtptngen.cpp`), ported: given a
//! skeleton such as `yMMMdjmm`, picks the locale's best pattern from CLDR's
//! `availableFormats` and adjusts it, exactly as Node's ICU does, so that an
//! `Intl.DateTimeFormat` option bag gives the same pattern as in Node.

use super::data;

pub const FIELD_COUNT: usize = 16;
pub const ERA: usize = 0;
pub const YEAR: usize = 1;
pub const MONTH: usize = 3;
pub const WEEKDAY: usize = 6;
pub const DAY: usize = 9;
pub const DAYPERIOD: usize = 10;
pub const HOUR: usize = 11;
pub const MINUTE: usize = 12;
pub const SECOND: usize = 13;
pub const FRACTIONAL_SECOND: usize = 14;
pub const ZONE: usize = 15;

const DT_NARROW: i32 = -0x101;
const DT_SHORTER: i32 = -0x102;
const DT_SHORT: i32 = -0x103;
const DT_LONG: i32 = -0x104;
const DT_NUMERIC: i32 = 0x100;
const DT_DELTA: i32 = 0x10;
const EXTRA_FIELD: i32 = 0x10000;
const MISSING_FIELD: i32 = 0x1000;
const FRACTIONAL_MASK: u32 = 1 << FRACTIONAL_SECOND;
const SECOND_AND_FRACTIONAL_MASK: u32 = (1 << SECOND) | (1 << FRACTIONAL_SECOND);
const MAX_TOKENS: usize = 50;

/// `UDATPG_MATCH_HOUR_FIELD_LENGTH` and friends.
pub const MATCH_HOUR_FIELD_LENGTH: u32 = 1 << HOUR;
const MATCH_MINUTE_FIELD_LENGTH: u32 = 1 << MINUTE;
const MATCH_SECOND_FIELD_LENGTH: u32 = 1 << SECOND;

const FLAG_FIX_FRACTIONAL_SECONDS: u32 = 1;
const FLAG_SKELETON_USES_CAP_J: u32 = 2;

struct DtType {
    ch: u8,
    field: usize,
    ty: i32,
    min_len: usize,
}

const fn t(ch: u8, field: usize, ty: i32, min_len: usize) -> DtType {
    DtType { ch, field, ty, min_len }
}

/// `dtTypes[]`: pattern letter, field, type, minimum length (in ICU's order).
static DT_TYPES: &[DtType] = &[
    t(b'G', ERA, DT_SHORT, 1),
    t(b'G', ERA, DT_LONG, 4),
    t(b'G', ERA, DT_NARROW, 5),
    t(b'y', YEAR, DT_NUMERIC, 1),
    t(b'Y', YEAR, DT_NUMERIC + DT_DELTA, 1),
    t(b'u', YEAR, DT_NUMERIC + 2 * DT_DELTA, 1),
    t(b'r', YEAR, DT_NUMERIC + 3 * DT_DELTA, 1),
    t(b'U', YEAR, DT_SHORT, 1),
    t(b'U', YEAR, DT_LONG, 4),
    t(b'U', YEAR, DT_NARROW, 5),
    t(b'Q', 2, DT_NUMERIC, 1),
    t(b'Q', 2, DT_SHORT, 3),
    t(b'Q', 2, DT_LONG, 4),
    t(b'Q', 2, DT_NARROW, 5),
    t(b'q', 2, DT_NUMERIC + DT_DELTA, 1),
    t(b'q', 2, DT_SHORT - DT_DELTA, 3),
    t(b'q', 2, DT_LONG - DT_DELTA, 4),
    t(b'q', 2, DT_NARROW - DT_DELTA, 5),
    t(b'M', MONTH, DT_NUMERIC, 1),
    t(b'M', MONTH, DT_SHORT, 3),
    t(b'M', MONTH, DT_LONG, 4),
    t(b'M', MONTH, DT_NARROW, 5),
    t(b'L', MONTH, DT_NUMERIC + DT_DELTA, 1),
    t(b'L', MONTH, DT_SHORT - DT_DELTA, 3),
    t(b'L', MONTH, DT_LONG - DT_DELTA, 4),
    t(b'L', MONTH, DT_NARROW - DT_DELTA, 5),
    t(b'l', MONTH, DT_NUMERIC + DT_DELTA, 1),
    t(b'w', 4, DT_NUMERIC, 1),
    t(b'W', 5, DT_NUMERIC, 1),
    t(b'E', WEEKDAY, DT_SHORT, 1),
    t(b'E', WEEKDAY, DT_LONG, 4),
    t(b'E', WEEKDAY, DT_NARROW, 5),
    t(b'E', WEEKDAY, DT_SHORTER, 6),
    t(b'c', WEEKDAY, DT_NUMERIC + 2 * DT_DELTA, 1),
    t(b'c', WEEKDAY, DT_SHORT - 2 * DT_DELTA, 3),
    t(b'c', WEEKDAY, DT_LONG - 2 * DT_DELTA, 4),
    t(b'c', WEEKDAY, DT_NARROW - 2 * DT_DELTA, 5),
    t(b'c', WEEKDAY, DT_SHORTER - 2 * DT_DELTA, 6),
    t(b'e', WEEKDAY, DT_NUMERIC + DT_DELTA, 1),
    t(b'e', WEEKDAY, DT_SHORT - DT_DELTA, 3),
    t(b'e', WEEKDAY, DT_LONG - DT_DELTA, 4),
    t(b'e', WEEKDAY, DT_NARROW - DT_DELTA, 5),
    t(b'e', WEEKDAY, DT_SHORTER - DT_DELTA, 6),
    t(b'd', DAY, DT_NUMERIC, 1),
    t(b'g', DAY, DT_NUMERIC + DT_DELTA, 1),
    t(b'D', 7, DT_NUMERIC, 1),
    t(b'F', 8, DT_NUMERIC, 1),
    t(b'a', DAYPERIOD, DT_SHORT, 1),
    t(b'a', DAYPERIOD, DT_LONG, 4),
    t(b'a', DAYPERIOD, DT_NARROW, 5),
    t(b'b', DAYPERIOD, DT_SHORT - DT_DELTA, 1),
    t(b'b', DAYPERIOD, DT_LONG - DT_DELTA, 4),
    t(b'b', DAYPERIOD, DT_NARROW - DT_DELTA, 5),
    t(b'B', DAYPERIOD, DT_SHORT - 3 * DT_DELTA, 1),
    t(b'B', DAYPERIOD, DT_LONG - 3 * DT_DELTA, 4),
    t(b'B', DAYPERIOD, DT_NARROW - 3 * DT_DELTA, 5),
    t(b'H', HOUR, DT_NUMERIC + 10 * DT_DELTA, 1),
    t(b'k', HOUR, DT_NUMERIC + 11 * DT_DELTA, 1),
    t(b'h', HOUR, DT_NUMERIC, 1),
    t(b'K', HOUR, DT_NUMERIC + DT_DELTA, 1),
    t(b'J', HOUR, DT_NUMERIC + 5 * DT_DELTA, 1),
    t(b'j', HOUR, DT_NUMERIC + 6 * DT_DELTA, 1),
    t(b'C', HOUR, DT_NUMERIC + 7 * DT_DELTA, 1),
    t(b'm', MINUTE, DT_NUMERIC, 1),
    t(b's', SECOND, DT_NUMERIC, 1),
    t(b'A', SECOND, DT_NUMERIC + DT_DELTA, 1),
    t(b'S', FRACTIONAL_SECOND, DT_NUMERIC, 1),
    t(b'v', ZONE, DT_SHORT - 2 * DT_DELTA, 1),
    t(b'v', ZONE, DT_LONG - 2 * DT_DELTA, 4),
    t(b'z', ZONE, DT_SHORT, 1),
    t(b'z', ZONE, DT_LONG, 4),
    t(b'Z', ZONE, DT_NARROW - DT_DELTA, 1),
    t(b'Z', ZONE, DT_LONG - DT_DELTA, 4),
    t(b'Z', ZONE, DT_SHORT - DT_DELTA, 5),
    t(b'O', ZONE, DT_SHORT - DT_DELTA, 1),
    t(b'O', ZONE, DT_LONG - DT_DELTA, 4),
    t(b'V', ZONE, DT_SHORT - DT_DELTA, 1),
    t(b'V', ZONE, DT_LONG - DT_DELTA, 2),
    t(b'V', ZONE, DT_LONG - 1 - DT_DELTA, 3),
    t(b'V', ZONE, DT_LONG - 2 - DT_DELTA, 4),
    t(b'X', ZONE, DT_NARROW - DT_DELTA, 1),
    t(b'X', ZONE, DT_SHORT - DT_DELTA, 2),
    t(b'X', ZONE, DT_LONG - DT_DELTA, 4),
    t(b'x', ZONE, DT_NARROW - DT_DELTA, 1),
    t(b'x', ZONE, DT_SHORT - DT_DELTA, 2),
    t(b'x', ZONE, DT_LONG - DT_DELTA, 4),
];

const CANONICAL_ITEMS: &str = "GyQMwWEDFdaHmsSv";
const CLDR_FIELD_APPEND: [&str; FIELD_COUNT] = [
    "Era",
    "Year",
    "Quarter",
    "Month",
    "Week",
    "*",
    "Day-Of-Week",
    "*",
    "*",
    "Day",
    "*",
    "Hour",
    "Minute",
    "Second",
    "*",
    "Timezone",
];
const CLDR_FIELD_NAME: [&str; FIELD_COUNT] = [
    "era",
    "year",
    "quarter",
    "month",
    "week",
    "weekOfMonth",
    "weekday",
    "dayOfYear",
    "weekdayOfMonth",
    "day",
    "dayperiod",
    "hour",
    "minute",
    "second",
    "*",
    "zone",
];

/// `getCanonicalIndex` (strict): the `DT_TYPES` row for a run of one letter.
fn canonical_index(item: &[u16]) -> Option<usize> {
    let (&first, rest) = item.split_first()?;
    if rest.iter().any(|&c| c != first) || first > 0x7f {
        return None;
    }
    let ch = first as u8;
    let len = item.len();
    let mut i = 0;
    while i < DT_TYPES.len() {
        if DT_TYPES[i].ch != ch {
            i += 1;
            continue;
        }
        match DT_TYPES.get(i + 1) {
            Some(next) if next.ch == ch && next.min_len <= len => {
                i += 1;
                continue;
            }
            _ => return Some(i),
        }
    }
    None
}

/// ICU's FormatParser: runs of one ASCII letter are items; any other UTF-16
/// unit is an item of its own.
struct FormatParser {
    items: Vec<Vec<u16>>,
}

impl FormatParser {
    fn new(pattern: &[u16]) -> Self {
        let mut items = Vec::new();
        let mut i = 0;
        while i < pattern.len() && items.len() < MAX_TOKENS {
            let c = pattern[i];
            let is_letter = (b'A' as u16..=b'Z' as u16).contains(&c) || (b'a' as u16..=b'z' as u16).contains(&c);
            let mut end = i + 1;
            if is_letter {
                while end < pattern.len() && pattern[end] == c {
                    end += 1;
                }
            }
            items.push(pattern[i..end].to_vec());
            i = end;
        }
        FormatParser { items }
    }

    fn is_quote_literal(item: &[u16]) -> bool {
        item.first() == Some(&(b'\'' as u16))
    }

    /// Collects a quoted literal starting at item `*i`; leaves `*i` on its closing quote.
    fn quote_literal(&self, i: &mut usize) -> Vec<u16> {
        let quote = b'\'' as u16;
        let mut out = Vec::new();
        let mut k = *i;
        if self.items[k].first() == Some(&quote) {
            out.extend_from_slice(&self.items[k]);
            k += 1;
        }
        while k < self.items.len() {
            if self.items[k].first() == Some(&quote) {
                if k + 1 < self.items.len() && self.items[k + 1].first() == Some(&quote) {
                    out.extend_from_slice(&self.items[k]);
                    out.extend_from_slice(&self.items[k + 1]);
                    k += 2;
                    continue;
                }
                out.extend_from_slice(&self.items[k]);
                break;
            }
            out.extend_from_slice(&self.items[k]);
            k += 1;
        }
        *i = k;
        out
    }

    fn is_pattern_separator(&self, field: &[u16]) -> bool {
        for (i, &c) in field.iter().enumerate() {
            // ICU compares items[i] (not the field's i-th unit) with '.'; kept as ICU has it.
            let dot = self.items.get(i).and_then(|it| it.first()) == Some(&(b'.' as u16));
            if matches!(c, 0x27 | 0x5c | 0x20 | 0x3a | 0x22 | 0x2c | 0x2d) || dot {
                continue;
            }
            return false;
        }
        true
    }
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct SkeletonFields {
    chars: [u8; FIELD_COUNT],
    lengths: [u8; FIELD_COUNT],
}

impl SkeletonFields {
    fn populate(&mut self, field: usize, ch: u8, len: usize) {
        self.chars[field] = ch;
        self.lengths[field] = len.min(127) as u8;
    }
    fn clear_field(&mut self, field: usize) {
        self.chars[field] = 0;
        self.lengths[field] = 0;
    }
    fn is_empty(&self, field: usize) -> bool {
        self.lengths[field] == 0
    }
    fn append_field(&self, field: usize, out: &mut Vec<u16>) {
        for _ in 0..self.lengths[field] {
            out.push(u16::from(self.chars[field]));
        }
    }
    fn to_units(self) -> Vec<u16> {
        let mut out = Vec::new();
        for f in 0..FIELD_COUNT {
            self.append_field(f, &mut out);
        }
        out
    }
    fn first_char(&self) -> u8 {
        (0..FIELD_COUNT)
            .find(|&f| self.lengths[f] != 0)
            .map(|f| self.chars[f])
            .unwrap_or(0)
    }
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct PtnSkeleton {
    ty: [i32; FIELD_COUNT],
    original: SkeletonFields,
    base_original: SkeletonFields,
    added_default_day_period: bool,
}

/// `DateTimeMatcher::set`: the skeleton of a pattern (or of a skeleton string).
fn skeleton_of(pattern: &[u16]) -> PtnSkeleton {
    let fp = FormatParser::new(pattern);
    let mut s = PtnSkeleton::default();
    let mut i = 0;
    while i < fp.items.len() {
        let value = &fp.items[i];
        if FormatParser::is_quote_literal(value) {
            fp.quote_literal(&mut i);
            i += 1;
            continue;
        }
        let Some(row) = canonical_index(value) else {
            i += 1;
            continue;
        };
        let row = &DT_TYPES[row];
        s.original.populate(row.field, value[0] as u8, value.len());
        s.base_original.populate(row.field, row.ch, row.min_len);
        let mut sub = row.ty;
        if row.ty > 0 {
            sub += value.len() as i32;
        }
        s.ty[row.field] = sub;
        i += 1;
    }
    // #20739: minutes and fractional seconds without seconds get seconds.
    if !s.original.is_empty(MINUTE)
        && !s.original.is_empty(FRACTIONAL_SECOND)
        && s.original.is_empty(SECOND)
        && let Some(row) = DT_TYPES.iter().find(|r| r.field == SECOND)
    {
        s.original.populate(SECOND, row.ch, row.min_len);
        s.base_original.populate(SECOND, row.ch, row.min_len);
        s.ty[SECOND] = if row.ty > 0 { row.ty + 1 } else { row.ty };
    }
    // #13183: a 12-hour field gets a default day period; a 24-hour one loses it.
    if !s.original.is_empty(HOUR) {
        let hour = s.original.chars[HOUR];
        if hour == b'h' || hour == b'K' {
            if s.original.is_empty(DAYPERIOD)
                && let Some(row) = DT_TYPES.iter().find(|r| r.field == DAYPERIOD)
            {
                s.original.populate(DAYPERIOD, row.ch, row.min_len);
                s.base_original.populate(DAYPERIOD, row.ch, row.min_len);
                s.ty[DAYPERIOD] = row.ty;
                s.added_default_day_period = true;
            }
        } else {
            s.original.clear_field(DAYPERIOD);
            s.base_original.clear_field(DAYPERIOD);
            s.ty[DAYPERIOD] = 0;
        }
    }
    s
}

#[derive(Default, Clone, Copy)]
struct DistanceInfo {
    missing: u32,
    extra: u32,
}

fn distance(me: &PtnSkeleton, other: &PtnSkeleton, include_mask: u32, info: &mut DistanceInfo) -> i32 {
    let mut result = 0;
    *info = DistanceInfo::default();
    for i in 0..FIELD_COUNT {
        let my = if include_mask & (1 << i) == 0 { 0 } else { me.ty[i] };
        let theirs = other.ty[i];
        if my == theirs {
            continue;
        }
        if my == 0 {
            result += EXTRA_FIELD;
            info.extra |= 1 << i;
        } else if theirs == 0 {
            result += MISSING_FIELD;
            info.missing |= 1 << i;
        } else {
            result += (my - theirs).abs();
        }
    }
    result
}

fn field_mask(s: &PtnSkeleton) -> u32 {
    (0..FIELD_COUNT).filter(|&i| s.ty[i] != 0).fold(0, |m, i| m | (1 << i))
}

struct PtnElem {
    base_pattern: Vec<u16>,
    skeleton: PtnSkeleton,
    pattern: Vec<u16>,
    skeleton_was_specified: bool,
}

/// `PatternMap`: 52 lists (A–Z, a–z) in insertion order.
struct PatternMap {
    boot: Vec<Vec<PtnElem>>,
}

fn boot_index(c: u8) -> Option<usize> {
    match c {
        b'A'..=b'Z' => Some(usize::from(c - b'A')),
        b'a'..=b'z' => Some(26 + usize::from(c - b'a')),
        _ => None,
    }
}

impl PatternMap {
    fn new() -> Self {
        PatternMap {
            boot: (0..52).map(|_| Vec::new()).collect(),
        }
    }

    fn add(&mut self, base_pattern: Vec<u16>, skeleton: PtnSkeleton, value: Vec<u16>, specified: bool) {
        let Some(idx) = base_pattern
            .first()
            .and_then(|&c| u8::try_from(c).ok())
            .and_then(boot_index)
        else {
            return;
        };
        let list = &mut self.boot[idx];
        if let Some(e) = list
            .iter_mut()
            .find(|e| e.base_pattern == base_pattern && e.skeleton.ty == skeleton.ty)
        {
            e.pattern = value;
            e.skeleton_was_specified = specified;
            return;
        }
        list.push(PtnElem {
            base_pattern,
            skeleton,
            pattern: value,
            skeleton_was_specified: specified,
        });
    }

    fn find_by_base_pattern(&self, base: &[u16]) -> Option<(&[u16], bool)> {
        let idx = base.first().and_then(|&c| u8::try_from(c).ok()).and_then(boot_index)?;
        self.boot[idx]
            .iter()
            .find(|e| e.base_pattern == base)
            .map(|e| (e.pattern.as_slice(), e.skeleton_was_specified))
    }

    /// The pattern for a skeleton (by `original`), and its specified skeleton.
    fn find_by_skeleton(&self, s: &PtnSkeleton) -> Option<(&[u16], Option<PtnSkeleton>)> {
        let idx = boot_index(s.base_original.first_char())?;
        self.boot[idx]
            .iter()
            .find(|e| e.skeleton.original == s.original)
            .map(|e| {
                (
                    e.pattern.as_slice(),
                    if e.skeleton_was_specified {
                        Some(e.skeleton)
                    } else {
                        None
                    },
                )
            })
    }
}

const ALLOWED_UNKNOWN: i8 = -1;
const ALLOWED_H_LOW: i8 = 0;
const ALLOWED_H: i8 = 1;
const ALLOWED_K: i8 = 2;
const ALLOWED_K_LOW: i8 = 3;
const ALLOWED_HB_LOW: i8 = 4;
const ALLOWED_HB: i8 = 5;
const ALLOWED_KB_LOW: i8 = 6;
const ALLOWED_KB: i8 = 7;
const ALLOWED_CAP_HB_LOW: i8 = 8;
const ALLOWED_CAP_HB: i8 = 9;

fn hour_format(s: &str) -> i8 {
    match s {
        "h" => ALLOWED_H_LOW,
        "H" => ALLOWED_H,
        "K" => ALLOWED_K,
        "k" => ALLOWED_K_LOW,
        "hb" => ALLOWED_HB_LOW,
        "hB" => ALLOWED_HB,
        "Kb" => ALLOWED_KB_LOW,
        "KB" => ALLOWED_KB,
        "Hb" => ALLOWED_CAP_HB_LOW,
        "HB" => ALLOWED_CAP_HB,
        _ => ALLOWED_UNKNOWN,
    }
}

/// The parts of an ICU locale ID the generator needs.
#[derive(Clone, Debug)]
pub struct LocaleInfo {
    /// ICU bundle name with script and region, no keywords: `en_US`, `zh_Hant_TW`.
    pub base_name: String,
    pub language: String,
    pub region: String,
    /// Likely region (from likely subtags) when `region` is empty.
    pub likely_language: String,
    pub likely_region: String,
    /// `-u-ca-` as an ICU calendar name (`gregorian`, `buddhist`...), if given.
    pub calendar_keyword: Option<String>,
    /// `-u-hc-` value, if given.
    pub hour_cycle_keyword: Option<String>,
    /// `-u-rg-`, if given (region override for supplemental data).
    pub region_override: Option<String>,
}

pub struct Generator {
    map: PatternMap,
    available_keys: Vec<String>,
    append_item_formats: [Vec<u16>; FIELD_COUNT],
    field_names: [Vec<u16>; FIELD_COUNT],
    date_time_formats: [Vec<u16>; 4],
    default_hour_char: u8,
    allowed_hour_formats: Vec<i8>,
    pub decimal: Vec<u16>,
}

fn units(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

/// `getFunctionalEquivalent(..."calendar"...)`: the calendar whose
/// availableFormats the generator reads: `-u-ca-`, else the locale's
/// `calendar/default`, else gregorian.
pub fn calendar_for_patterns(info: &LocaleInfo) -> String {
    if let Some(c) = &info.calendar_keyword {
        return c.clone();
    }
    data::lookup_str("", &info.base_name, "calendar/default")
        .unwrap_or("gregorian")
        .to_string()
}

impl Generator {
    /// `DateTimePatternGenerator::createInstance(locale)`. `calendar_type` is
    /// what `Calendar::getCalendarTypeFromLocale` gives (for the combining
    /// patterns); `decimal` is the locale's decimal separator.
    pub fn new(info: &LocaleInfo, calendar_type: &str, decimal: &str) -> Generator {
        let mut g = Generator {
            map: PatternMap::new(),
            available_keys: Vec::new(),
            append_item_formats: Default::default(),
            field_names: Default::default(),
            date_time_formats: Default::default(),
            default_hour_char: 0,
            allowed_hour_formats: Vec::new(),
            decimal: units(decimal),
        };
        let pattern_calendar = calendar_for_patterns(info);
        // addCanonicalItems
        for c in CANONICAL_ITEMS.encode_utf16() {
            g.add_pattern(&[c], None, false);
        }
        // addICUPatterns: the calendar's first eight DateTimePatterns.
        let path = format!("calendar/{pattern_calendar}/DateTimePatterns");
        if let Some(pats) = data::lookup("", &info.base_name, &path) {
            for i in 0..8.min(pats.len()) {
                let Some(item) = pats.index(i) else { continue };
                let text = item.str().or_else(|| item.index(0).and_then(|r| r.str()));
                if let Some(text) = text {
                    g.add_pattern(&units(text), None, false);
                }
            }
        }
        // addCLDRData: appendItems, field display names, availableFormats.
        let append = |table: data::Res, g: &mut Generator| {
            for (key, value) in table.entries() {
                if let Some(field) = CLDR_FIELD_APPEND.iter().position(|k| *k == key)
                    && let Some(v) = value.str()
                    && g.append_item_formats[field].is_empty()
                    && !v.is_empty()
                {
                    g.append_item_formats[field] = units(v);
                }
            }
        };
        let mut tables = Vec::new();
        data::each_table_with_fallback(
            "",
            &info.base_name,
            &format!("calendar/{pattern_calendar}/appendItems"),
            &mut |t| tables.push(t),
        );
        for t in tables {
            append(t, &mut g);
        }
        for f in 0..FIELD_COUNT {
            if g.append_item_formats[f].is_empty() {
                g.append_item_formats[f] = units("{0} \u{251C}{2}: {1}\u{2524}");
            }
        }
        let mut field_tables = Vec::new();
        data::each_table_with_fallback("", &info.base_name, "fields", &mut |t| field_tables.push(t));
        for t in field_tables {
            for (key, value) in t.entries() {
                // Only the wide width matters for appendItems.
                if key.contains('-') {
                    continue;
                }
                let Some(field) = CLDR_FIELD_NAME.iter().position(|k| *k == key) else {
                    continue;
                };
                let dn = match value.alias() {
                    Some(_) => data::lookup("", &info.base_name, &format!("fields/{key}/dn")),
                    None => value.get("dn"),
                };
                if let Some(dn) = dn.and_then(|d| d.str())
                    && g.field_names[field].is_empty()
                    && !dn.is_empty()
                {
                    g.field_names[field] = units(dn);
                }
            }
        }
        // ICU's fillInMissing: a field without a name is "F" and its number.
        for (i, name) in g.field_names.iter_mut().enumerate() {
            if name.is_empty() {
                *name = units(&format!("F{i}"));
            }
        }
        let mut formats = Vec::new();
        data::each_table_with_fallback(
            "",
            &info.base_name,
            &format!("calendar/{pattern_calendar}/availableFormats"),
            &mut |t| formats.push(t),
        );
        'tables: for t in formats {
            for (key, value) in t.entries() {
                if g.available_keys.iter().any(|k| k == key) {
                    continue;
                }
                g.available_keys.push(key.to_string());
                // A plural-keyed format (MMMMW, yw) is a table: ICU reads it as
                // an empty string with an error, adds that empty pattern, and
                // the error stops the whole load if the add was refused.
                match value.str() {
                    Some(text) => {
                        g.add_pattern(&units(text), Some(&units(key)), true);
                    }
                    None => {
                        if !g.add_pattern(&[], Some(&units(key)), true) {
                            break 'tables;
                        }
                    }
                }
            }
        }
        g.set_date_time_from_calendar(info, calendar_type);
        g.allowed_hour_formats(info);
        g
    }

    /// `addPatternWithOptionalSkeleton`; false when a conflict kept it out.
    fn add_pattern(&mut self, pattern: &[u16], skeleton_to_use: Option<&[u16]>, override_: bool) -> bool {
        let skeleton = skeleton_of(skeleton_to_use.unwrap_or(pattern));
        let base_pattern = skeleton.base_original.to_units();
        if let Some((_, had_specified)) = self.map.find_by_base_pattern(&base_pattern)
            && (!had_specified || (skeleton_to_use.is_some() && !override_))
            && !override_
        {
            return false;
        }
        if let Some((_, entry_specified)) = self.map.find_by_skeleton(&skeleton)
            && (!override_ || (skeleton_to_use.is_some() && entry_specified.is_some()))
        {
            return false;
        }
        self.map
            .add(base_pattern, skeleton, pattern.to_vec(), skeleton_to_use.is_some());
        true
    }

    fn set_date_time_from_calendar(&mut self, info: &LocaleInfo, calendar_type: &str) {
        let base = &info.base_name;
        let mut patterns = None;
        if calendar_type != "gregorian" {
            patterns = data::lookup("", base, &format!("calendar/{calendar_type}/DateTimePatterns%atTime"));
        }
        if patterns.is_none() {
            patterns = data::lookup("", base, "calendar/gregorian/DateTimePatterns%atTime");
        }
        let mut offset = 0;
        if patterns.map(|p| p.len() < 4).unwrap_or(true) {
            offset = 9;
            patterns = None;
            if calendar_type != "gregorian" {
                patterns = data::lookup("", base, &format!("calendar/{calendar_type}/DateTimePatterns"));
            }
            if patterns.is_none() {
                patterns = data::lookup("", base, "calendar/gregorian/DateTimePatterns");
            }
        }
        if let Some(p) = patterns {
            for style in 0..4 {
                if let Some(s) = p
                    .index(offset + style)
                    .and_then(|r| r.str().or_else(|| r.index(0).and_then(|x| x.str())))
                {
                    self.date_time_formats[style] = units(s);
                }
            }
        }
    }

    fn allowed_hour_formats(&mut self, info: &LocaleInfo) {
        let mut language = info.language.as_str();
        let mut country = info.region_override.as_deref().unwrap_or(info.region.as_str());
        if language.is_empty() || country.is_empty() {
            language = &info.likely_language;
            country = &info.likely_region;
        }
        if language.is_empty() {
            language = "und";
        }
        if country.is_empty() {
            country = "001";
        }
        let lookup = |lang: &str, country: &str| -> Option<Vec<i8>> {
            let time_data = data::bundle("supplementalData")?.get("timeData")?;
            let entry = time_data
                .get(&format!("{lang}_{country}"))
                .or_else(|| time_data.get(country))?;
            let mut list: Vec<i8> = Vec::new();
            let mut preferred = ALLOWED_UNKNOWN;
            if let Some(allowed) = entry.get("allowed") {
                match allowed.str() {
                    Some(s) => list.push(hour_format(s)),
                    None => list.extend(allowed.strings().into_iter().map(hour_format)),
                }
            }
            if let Some(p) = entry.get("preferred").and_then(|p| p.str()) {
                preferred = hour_format(p);
            }
            if list.is_empty() {
                let p = if preferred != ALLOWED_UNKNOWN {
                    preferred
                } else {
                    ALLOWED_H
                };
                return Some(vec![p, p]);
            }
            let first = if preferred != ALLOWED_UNKNOWN {
                preferred
            } else {
                list[0]
            };
            let mut out = vec![first];
            out.extend(list);
            Some(out)
        };
        let found = lookup(language, country);
        self.default_hour_char = match info.hour_cycle_keyword.as_deref() {
            Some("h24") => b'k',
            Some("h23") => b'H',
            Some("h12") => b'h',
            Some("h11") => b'K',
            _ => 0,
        };
        match found {
            Some(list) => {
                if self.default_hour_char == 0 {
                    self.default_hour_char = match list[0] {
                        ALLOWED_H_LOW => b'h',
                        ALLOWED_H => b'H',
                        ALLOWED_K => b'K',
                        ALLOWED_K_LOW => b'k',
                        _ => b'H',
                    };
                }
                self.allowed_hour_formats = list[1..].to_vec();
            }
            None => {
                if self.default_hour_char == 0 {
                    self.default_hour_char = b'H';
                }
                self.allowed_hour_formats = vec![ALLOWED_H];
            }
        }
    }

    /// `getDefaultHourCycle`: "h11", "h12", "h23" or "h24".
    pub fn default_hour_cycle(&self) -> &'static str {
        match self.default_hour_char {
            b'K' => "h11",
            b'h' => "h12",
            b'k' => "h24",
            _ => "h23",
        }
    }

    fn map_skeleton_metacharacters(&self, skeleton: &[u16], flags: &mut u32) -> Vec<u16> {
        let mut out = Vec::new();
        let mut in_quoted = false;
        let mut pos = 0;
        while pos < skeleton.len() {
            let c = skeleton[pos];
            if c == b'\'' as u16 {
                in_quoted = !in_quoted;
            } else if !in_quoted {
                if c == b'j' as u16 || c == b'C' as u16 {
                    let mut extra = 0usize;
                    while pos + 1 < skeleton.len() && skeleton[pos + 1] == c {
                        extra += 1;
                        pos += 1;
                    }
                    let mut hour_len = 1 + (extra & 1);
                    let mut day_period_len = if extra < 2 { 1 } else { 3 + (extra >> 1) };
                    let mut hour_char = b'h';
                    let mut day_period_char = b'a';
                    if c == b'j' as u16 {
                        hour_char = self.default_hour_char;
                    } else {
                        let best = self.allowed_hour_formats.first().copied().unwrap_or(ALLOWED_H);
                        if matches!(best, ALLOWED_H | ALLOWED_CAP_HB | ALLOWED_CAP_HB_LOW) {
                            hour_char = b'H';
                        } else if matches!(best, ALLOWED_K | ALLOWED_KB | ALLOWED_KB_LOW) {
                            hour_char = b'K';
                        } else if best == ALLOWED_K_LOW {
                            hour_char = b'k';
                        }
                        if matches!(best, ALLOWED_CAP_HB | ALLOWED_HB | ALLOWED_KB) {
                            day_period_char = b'B';
                        } else if matches!(best, ALLOWED_CAP_HB_LOW | ALLOWED_HB_LOW | ALLOWED_KB_LOW) {
                            day_period_char = b'b';
                        }
                    }
                    if hour_char == b'H' || hour_char == b'k' {
                        day_period_len = 0;
                    }
                    while day_period_len > 0 {
                        out.push(u16::from(day_period_char));
                        day_period_len -= 1;
                    }
                    while hour_len > 0 {
                        out.push(u16::from(hour_char));
                        hour_len -= 1;
                    }
                } else if c == b'J' as u16 {
                    out.push(b'H' as u16);
                    *flags |= FLAG_SKELETON_USES_CAP_J;
                } else {
                    out.push(c);
                }
            }
            pos += 1;
        }
        out
    }

    /// `getBestRaw`: the closest pattern, its distance info and specified skeleton.
    fn best_raw(
        &self,
        source: &PtnSkeleton,
        include_mask: u32,
        info: &mut DistanceInfo,
    ) -> Option<(Vec<u16>, Option<PtnSkeleton>)> {
        let mut best_distance = i32::MAX;
        let mut best_missing: i64 = -1;
        let mut best: Option<(Vec<u16>, Option<PtnSkeleton>)> = None;
        let mut temp = DistanceInfo::default();
        'outer: for list in &self.map.boot {
            for elem in list {
                let d = distance(source, &elem.skeleton, include_mask, &mut temp);
                if d < best_distance || (d == best_distance && best_missing < i64::from(temp.missing)) {
                    best_distance = d;
                    best_missing = i64::from(temp.missing);
                    best = self.map.find_by_skeleton(&elem.skeleton).map(|(p, s)| (p.to_vec(), s));
                    *info = temp;
                    if d == 0 {
                        break 'outer;
                    }
                }
            }
        }
        best
    }

    fn adjust_field_types(
        &self,
        requested: &PtnSkeleton,
        pattern: &[u16],
        specified: Option<&PtnSkeleton>,
        flags: u32,
        options: u32,
    ) -> Vec<u16> {
        let fp = FormatParser::new(pattern);
        let mut out = Vec::new();
        let mut i = 0;
        while i < fp.items.len() {
            let field = &fp.items[i];
            if FormatParser::is_quote_literal(field) {
                let q = fp.quote_literal(&mut i);
                out.extend_from_slice(&q);
                i += 1;
                continue;
            }
            if fp.is_pattern_separator(field) {
                out.extend_from_slice(field);
                i += 1;
                continue;
            }
            let Some(row_index) = canonical_index(field) else {
                out.extend_from_slice(field);
                i += 1;
                continue;
            };
            let row = &DT_TYPES[row_index];
            let type_value = row.field;
            let mut new_field = field.clone();
            if flags & FLAG_FIX_FRACTIONAL_SECONDS != 0 && type_value == SECOND {
                new_field.extend_from_slice(&self.decimal);
                requested.original.append_field(FRACTIONAL_SECOND, &mut new_field);
            } else if requested.ty[type_value] != 0 {
                let req_char = requested.original.chars[type_value];
                let mut req_len = usize::from(requested.original.lengths[type_value]);
                if req_char == b'E' && req_len < 3 {
                    req_len = 3;
                }
                let mut adj_len = req_len;
                if (type_value == HOUR && options & MATCH_HOUR_FIELD_LENGTH == 0)
                    || (type_value == MINUTE && options & MATCH_MINUTE_FIELD_LENGTH == 0)
                    || (type_value == SECOND && options & MATCH_SECOND_FIELD_LENGTH == 0)
                {
                    adj_len = field.len();
                } else if let Some(spec) = specified.filter(|_| req_char != b'c' && req_char != b'e') {
                    let skel_len = usize::from(spec.original.lengths[type_value]);
                    let pat_numeric = row.ty > 0;
                    let req_numeric = requested.ty[type_value] > 0;
                    if skel_len == req_len || (pat_numeric && !req_numeric) || (req_numeric && !pat_numeric) {
                        adj_len = field.len();
                    }
                }
                let mut c = if type_value != HOUR
                    && type_value != MONTH
                    && type_value != WEEKDAY
                    && (type_value != YEAR || req_char == b'Y')
                {
                    req_char
                } else {
                    field[0] as u8
                };
                if c == b'E' && adj_len < 3 {
                    c = b'e';
                }
                if type_value == HOUR && self.default_hour_char != 0 {
                    let d = self.default_hour_char;
                    if flags & FLAG_SKELETON_USES_CAP_J != 0 || req_char == d {
                        c = d;
                    } else if req_char == b'h' && d == b'K' {
                        c = b'K';
                    } else if req_char == b'H' && d == b'k' {
                        c = b'k';
                    } else if req_char == b'k' && d == b'H' {
                        c = b'H';
                    } else if req_char == b'K' && d == b'h' {
                        c = b'h';
                    }
                }
                new_field = vec![u16::from(c); adj_len];
            }
            out.extend_from_slice(&new_field);
            i += 1;
        }
        out
    }

    fn best_appending(&self, requested: &PtnSkeleton, missing_fields: u32, flags: u32, options: u32) -> Vec<u16> {
        if missing_fields == 0 {
            return Vec::new();
        }
        let mut info = DistanceInfo::default();
        let Some((pattern, mut specified)) = self.best_raw(requested, missing_fields, &mut info) else {
            return Vec::new();
        };
        let mut result = self.adjust_field_types(requested, &pattern, specified.as_ref(), flags, options);
        if info.missing == 0 {
            return result;
        }
        let mut last_missing = 0;
        while info.missing != 0 {
            if last_missing == info.missing {
                break;
            }
            if info.missing & SECOND_AND_FRACTIONAL_MASK == FRACTIONAL_MASK
                && missing_fields & SECOND_AND_FRACTIONAL_MASK == SECOND_AND_FRACTIONAL_MASK
            {
                result = self.adjust_field_types(
                    requested,
                    &result,
                    specified.as_ref(),
                    flags | FLAG_FIX_FRACTIONAL_SECONDS,
                    options,
                );
                info.missing &= !FRACTIONAL_MASK;
                continue;
            }
            let starting = info.missing;
            let Some((temp, spec)) = self.best_raw(requested, info.missing, &mut info) else {
                break;
            };
            specified = spec;
            let temp = self.adjust_field_types(requested, &temp, specified.as_ref(), flags, options);
            let found = starting & !info.missing;
            let top = top_bit_number(found);
            if !self.append_item_formats[top].is_empty() {
                let mut name = vec![b'\'' as u16];
                name.extend_from_slice(&self.field_names[top]);
                name.push(b'\'' as u16);
                result = simple_format(&self.append_item_formats[top], &[&result, &temp, &name]);
            }
            last_missing = info.missing;
        }
        result
    }

    /// `getBestPattern(skeleton, options)`.
    pub fn best_pattern(&self, skeleton: &str, options: u32) -> String {
        let mut flags = 0;
        let mapped = self.map_skeleton_metacharacters(&units(skeleton), &mut flags);
        let requested = skeleton_of(&mapped);
        let mut info = DistanceInfo::default();
        let Some((best, specified)) = self.best_raw(&requested, u32::MAX, &mut info) else {
            return String::new();
        };
        if info.missing == 0 && info.extra == 0 {
            return String::from_utf16_lossy(&self.adjust_field_types(
                &requested,
                &best,
                specified.as_ref(),
                flags,
                options,
            ));
        }
        let needed = field_mask(&requested);
        let date_mask: u32 = (1 << DAYPERIOD) - 1;
        let time_mask: u32 = (1 << FIELD_COUNT) - 1 - date_mask;
        let date = self.best_appending(&requested, needed & date_mask, flags, options);
        let time = self.best_appending(&requested, needed & time_mask, flags, options);
        if date.is_empty() {
            return String::from_utf16_lossy(&time);
        }
        if time.is_empty() {
            return String::from_utf16_lossy(&date);
        }
        let month_len = requested.base_original.lengths[MONTH];
        let style = if month_len == 4 {
            if requested.base_original.lengths[WEEKDAY] > 0 {
                0
            } else {
                1
            }
        } else if month_len == 3 {
            2
        } else {
            3
        };
        String::from_utf16_lossy(&simple_format(&self.date_time_formats[style], &[&time, &date]))
    }
}

/// `staticGetSkeleton`: the skeleton of a pattern.
pub fn pattern_skeleton(pattern: &str) -> String {
    let s = skeleton_of(&units(pattern));
    let mut u = s.original.to_units();
    if s.added_default_day_period
        && let Some(pos) = u.iter().position(|&c| c == u16::from(b'a'))
    {
        u.remove(pos);
    }
    String::from_utf16_lossy(&u)
}

fn top_bit_number(mask: u32) -> usize {
    if mask == 0 {
        return 0;
    }
    let i = 32 - mask.leading_zeros() as usize;
    (i - 1).min(ZONE)
}

/// `SimpleFormatter::format` for `{0}`, `{1}`, `{2}` with apostrophe quoting
/// (ICU patterns quote with `'`; `''` is one apostrophe).
pub fn simple_format(pattern: &[u16], args: &[&[u16]]) -> Vec<u16> {
    let mut out = Vec::new();
    let mut i = 0;
    let quote = b'\'' as u16;
    while i < pattern.len() {
        let c = pattern[i];
        if c == quote {
            if pattern.get(i + 1) == Some(&quote) {
                out.push(quote);
                i += 2;
                continue;
            }
            // A quote before '{', '}' or another quote starts literal text; else it is literal.
            if matches!(pattern.get(i + 1), Some(&0x7b) | Some(&0x7d)) {
                i += 1;
                while i < pattern.len() {
                    if pattern[i] == quote {
                        if pattern.get(i + 1) == Some(&quote) {
                            out.push(quote);
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    out.push(pattern[i]);
                    i += 1;
                }
                continue;
            }
            out.push(quote);
            i += 1;
            continue;
        }
        if c == 0x7b
            && let Some(end) = pattern[i..].iter().position(|&x| x == 0x7d)
        {
            let digits = &pattern[i + 1..i + end];
            if let Ok(n) = String::from_utf16_lossy(digits).parse::<usize>()
                && let Some(arg) = args.get(n)
            {
                out.extend_from_slice(arg);
                i += end + 1;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The intervalFormats key closest to `skeleton` (same fields, least
/// width difference), as DateIntervalInfo::getBestSkeleton picks it.
pub fn closest_skeleton<'a>(skeleton: &str, keys: &[&'a str]) -> Option<&'a str> {
    let requested = skeleton_of(&units(skeleton));
    let mut best: Option<(&'a str, i32)> = None;
    let mut info = DistanceInfo::default();
    for &k in keys {
        let candidate = skeleton_of(&units(k));
        let d = distance(&requested, &candidate, u32::MAX, &mut info);
        if info.missing != 0 || info.extra != 0 {
            continue;
        }
        if best.map(|(_, bd)| d < bd).unwrap_or(true) {
            best = Some((k, d));
        }
    }
    best.map(|(k, _)| k)
}

fn field_widths(skeleton: &str) -> [usize; 58] {
    let mut w = [0usize; 58];
    for c in skeleton.chars() {
        // (Stand-alone months count as months, as DateIntervalFormat normalizes them.)
        let c = if c == 'L' { 'M' } else { c };
        if c.is_ascii_alphabetic() {
            w[(c as u8 - b'A') as usize] += 1;
        }
    }
    w
}

/// `adjustFieldWidth`: widens a field of the interval pattern that is as
/// wide as in its key's skeleton but narrower than requested.
pub fn adjust_widths(pattern: &str, best_key: &str, requested: &str) -> String {
    let best = field_widths(best_key);
    let input = field_widths(requested);
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut in_quote = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            in_quote = !in_quote;
            out.push(c);
            i += 1;
            continue;
        }
        if in_quote || !c.is_ascii_alphabetic() {
            out.push(c);
            i += 1;
            continue;
        }
        let mut count = 0;
        while i < chars.len() && chars[i] == c {
            count += 1;
            i += 1;
        }
        let key = if c == 'L' { 'M' } else { c };
        let idx = (key as u8 - b'A') as usize;
        let mut n = count;
        if best[idx] == count && input[idx] > best[idx] {
            n = input[idx];
        }
        for _ in 0..n {
            out.push(c);
        }
    }
    out
}
