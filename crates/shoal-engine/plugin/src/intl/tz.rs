//! Time zones: the IANA names Node accepts (canonicalized as Node's ICU
//! does), UTC offsets and daylight saving time from jiff's bundled tzdb,
//! and ICU's time zone display names (TimeZoneFormat, TimeZoneNames and
//! TimeZoneGenericNames, icu4c `tzfmt.cpp`, `tznames_impl.cpp`,
//! `tzgnames.cpp`) over Node's CLDR data.

use super::data::{self, Res};
use jiff::Timestamp;
use jiff::tz::{Dst, TimeZone};

/// A time zone as a formatter holds it.
#[derive(Clone)]
pub enum Zone {
    /// An IANA zone; `id` is its canonical CLDR ID (`Etc/UTC` for UTC,
    /// which Node reports as "UTC").
    Named { id: String, tz: TimeZone },
    /// A fixed offset (`+05:30`), in minutes.
    Offset(i32),
}

const NO_INHERITANCE: &str = "\u{2205}\u{2205}\u{2205}";
const MS_PER_DAY: f64 = 86_400_000.0;

/// `[+-]HH[:]MM` or `[+-]HH` (ECMA-402's offset time zones), U+2212 as minus.
fn parse_offset(s: &str) -> Option<i32> {
    let mut chars = s.chars();
    let sign = match chars.next()? {
        '+' => 1,
        '-' | '\u{2212}' => -1,
        _ => return None,
    };
    let rest: String = chars.collect();
    let digits: Vec<u32> = rest
        .chars()
        .filter(|c| *c != ':')
        .map(|c| c.to_digit(10))
        .collect::<Option<_>>()?;
    let colon = rest.contains(':');
    let (h, m) = match (digits.len(), colon) {
        (2, false) => (digits[0] * 10 + digits[1], 0),
        (4, _) => {
            if colon && rest.find(':') != Some(2) {
                return None;
            }
            (digits[0] * 10 + digits[1], digits[2] * 10 + digits[3])
        }
        _ => return None,
    };
    if h > 23 || m > 59 {
        return None;
    }
    Some(sign * (h * 60 + m) as i32)
}

impl Zone {
    /// Resolves a `timeZone` option as Node does; `None` for an invalid name.
    pub fn resolve(name: &str) -> Option<Zone> {
        if let Some(minutes) = parse_offset(name) {
            return Some(Zone::Offset(minutes));
        }
        let canonical = data::meta("tz/canonical")?.get(&name.to_ascii_uppercase())?.str()?;
        Zone::named(canonical)
    }

    pub fn named(canonical: &str) -> Option<Zone> {
        let id = if canonical == "UTC" { "Etc/UTC" } else { canonical };
        let tz = jiff::tz::db().get(id).ok()?;
        Some(Zone::Named { id: id.to_string(), tz })
    }

    /// The ID `resolvedOptions().timeZone` reports.
    pub fn id(&self) -> String {
        match self {
            Zone::Named { id, .. } if id == "Etc/UTC" => "UTC".to_string(),
            Zone::Named { id, .. } => id.clone(),
            Zone::Offset(m) => {
                let sign = if *m < 0 { '-' } else { '+' };
                let a = m.abs();
                format!("{sign}{:02}:{:02}", a / 60, a % 60)
            }
        }
    }

    /// (raw offset ms, daylight savings ms) at an instant. jiff gives the
    /// total offset and whether it is DST; ICU's split is approximated by
    /// treating a DST period's savings as one hour (what every zone that
    /// observes DST uses, except Lord Howe's 30 minutes and Troll's two
    /// hours, which only ICU's offset arithmetic ever sees).
    pub fn offsets(&self, epoch_ms: f64) -> (i32, i32) {
        match self {
            Zone::Offset(m) => (m * 60_000, 0),
            Zone::Named { tz, .. } => {
                let ts = timestamp(epoch_ms);
                let info = tz.to_offset_info(ts);
                let total = info.offset().seconds() * 1000;
                if info.dst() == Dst::Yes {
                    let savings = dst_savings(tz, ts, total);
                    (total - savings, savings)
                } else {
                    (total, 0)
                }
            }
        }
    }

    pub fn total_offset_ms(&self, epoch_ms: f64) -> i32 {
        let (raw, dst) = self.offsets(epoch_ms);
        raw + dst
    }

    /// Whether there is a DST period within `range` ms before or after (the
    /// check ICU's generic names make before preferring a standard name).
    fn dst_near(&self, epoch_ms: f64, range: f64) -> bool {
        let Zone::Named { tz, .. } = self else {
            return false;
        };
        let ts = timestamp(epoch_ms);
        // (ICU's previous transition includes one at the instant itself.)
        if let Some(before) = tz.preceding(timestamp(epoch_ms + 1.0)).next() {
            let t = before.timestamp().as_millisecond() as f64;
            if epoch_ms - t < range {
                // ICU looks at the offset *before* that transition.
                let prior = tz.to_offset_info(timestamp(t - 1.0));
                if prior.dst() == Dst::Yes {
                    return true;
                }
            }
        }
        if let Some(after) = tz.following(ts).next() {
            let t = after.timestamp().as_millisecond() as f64;
            if t - epoch_ms < range && after.dst() == Dst::Yes {
                return true;
            }
        }
        false
    }
}

/// A DST period's savings: the total offset minus the standard offset in
/// force around it (the nearest non-DST period), one hour if none is found.
fn dst_savings(tz: &TimeZone, ts: Timestamp, total_ms: i32) -> i32 {
    for t in tz.preceding(ts).take(4) {
        if t.dst() == Dst::No {
            let s = t.offset().seconds() * 1000;
            if s != total_ms {
                return total_ms - s;
            }
        }
    }
    for t in tz.following(ts).take(4) {
        if t.dst() == Dst::No {
            let s = t.offset().seconds() * 1000;
            if s != total_ms {
                return total_ms - s;
            }
        }
    }
    3_600_000
}

pub fn timestamp(epoch_ms: f64) -> Timestamp {
    let ms = epoch_ms.clamp(-8.64e15, 8.64e15) as i64;
    Timestamp::from_millisecond(ms).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// `Intl.supportedValuesOf('timeZone')`.
pub fn supported() -> Vec<&'static str> {
    data::meta("tz/supported").map(Res::strings).unwrap_or_default()
}

/// CLDR keys zone IDs with ':' for '/'.
fn zone_key(id: &str) -> String {
    id.replace('/', ":")
}

fn zone_info(id: &str) -> Option<(&'static str, bool)> {
    let z = data::meta("tz/zones")?.get(id)?;
    let region = z.index(0)?.str()?;
    let primary = z.index(1)?.int()? != 0;
    Some((region, primary))
}

/// The metazone of a zone at an instant (metaZones.res `metazoneInfo`).
fn metazone(id: &str, epoch_ms: f64) -> Option<&'static str> {
    let list = data::bundle("metaZones")?.get("metazoneInfo")?.get(&zone_key(id))?;
    for (_, entry) in list.entries() {
        let mz = entry.index(0).and_then(Res::str)?;
        let from = entry.index(1).and_then(Res::str).map(parse_mz_date).unwrap_or(f64::MIN);
        let to = entry.index(2).and_then(Res::str).map(parse_mz_date).unwrap_or(f64::MAX);
        if from <= epoch_ms && epoch_ms < to {
            return Some(mz);
        }
    }
    None
}

/// "1970-01-01 00:00" (UTC) as epoch milliseconds.
fn parse_mz_date(s: &str) -> f64 {
    let n = |a: usize, b: usize| s.get(a..b).and_then(|x| x.parse::<i64>().ok()).unwrap_or(0);
    let (y, mo, d, h, mi) = (n(0, 4), n(5, 7), n(8, 10), n(11, 13), n(14, 16));
    let days = days_from_civil(y, mo, d);
    (days as f64) * MS_PER_DAY + ((h * 60 + mi) * 60_000) as f64
}

pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `getReferenceZoneID`: the metazone's zone for a region, else for "001".
fn reference_zone(mz: &str, region: &str) -> Option<&'static str> {
    let map = data::bundle("metaZones")?.get("mapTimezones")?.get(mz)?;
    map.get(region).or_else(|| map.get("001")).and_then(Res::str)
}

/// Name types, as CLDR keys them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum NameType {
    LongStandard,
    LongDaylight,
    LongGeneric,
    ShortStandard,
    ShortDaylight,
    ShortGeneric,
}

impl NameType {
    fn key(self) -> &'static str {
        match self {
            NameType::LongStandard => "ls",
            NameType::LongDaylight => "ld",
            NameType::LongGeneric => "lg",
            NameType::ShortStandard => "ss",
            NameType::ShortDaylight => "sd",
            NameType::ShortGeneric => "sg",
        }
    }
}

/// The zone names of a locale (TimeZoneNamesImpl + TimeZoneGenericNames + TimeZoneFormat).
pub struct ZoneNames {
    locale: String,
    target_region: String,
    gmt_prefix: String,
    gmt_suffix: String,
    /// H, HM, HMS for positive, then negative offsets, as parsed items.
    offset_patterns: [Vec<OffsetItem>; 6],
    digits: Vec<char>,
    region_format: String,
    fallback_format: String,
}

#[derive(Clone)]
enum OffsetItem {
    Text(String),
    Hour,
    Minute,
    Second,
}

fn unquote(s: &str) -> String {
    if !s.contains('\'') {
        return s.to_string();
    }
    let mut out = String::new();
    let mut prev_quote = false;
    for c in s.chars() {
        if c == '\'' {
            if prev_quote {
                out.push(c);
                prev_quote = false;
            } else {
                prev_quote = true;
            }
        } else {
            prev_quote = false;
            out.push(c);
        }
    }
    out
}

fn parse_offset_pattern(p: &str) -> Vec<OffsetItem> {
    let mut items = Vec::new();
    let mut text = String::new();
    let mut in_quote = false;
    let mut prev_quote = false;
    let mut field: Option<char> = None;
    let flush_field = |field: &mut Option<char>, items: &mut Vec<OffsetItem>| {
        if let Some(f) = field.take() {
            items.push(match f {
                'H' => OffsetItem::Hour,
                'm' => OffsetItem::Minute,
                _ => OffsetItem::Second,
            });
        }
    };
    for c in p.chars() {
        if c == '\'' {
            if prev_quote {
                text.push('\'');
                prev_quote = false;
            } else {
                prev_quote = true;
                flush_field(&mut field, &mut items);
            }
            in_quote = !in_quote;
            continue;
        }
        prev_quote = false;
        if !in_quote && matches!(c, 'H' | 'm' | 's') {
            if field == Some(c) {
                continue;
            }
            flush_field(&mut field, &mut items);
            if !text.is_empty() {
                items.push(OffsetItem::Text(std::mem::take(&mut text)));
            }
            field = Some(c);
        } else {
            flush_field(&mut field, &mut items);
            text.push(c);
        }
    }
    flush_field(&mut field, &mut items);
    if !text.is_empty() {
        items.push(OffsetItem::Text(text));
    }
    items
}

fn expand_offset_pattern(hm: &str) -> String {
    let Some(mm) = hm.find("mm") else {
        return hm.to_string();
    };
    let sep = hm[..mm].rfind('H').map(|h| &hm[h + 1..mm]).unwrap_or("");
    format!("{}{}ss{}", &hm[..mm + 2], sep, &hm[mm + 2..])
}

fn truncate_offset_pattern(hm: &str) -> String {
    let Some(mm) = hm.find("mm") else {
        return hm.to_string();
    };
    let head = &hm[..mm];
    if let Some(i) = head.rfind("HH") {
        return hm[..i + 2].to_string();
    }
    if let Some(i) = head.rfind('H') {
        return hm[..i + 1].to_string();
    }
    hm.to_string()
}

impl ZoneNames {
    /// `locale` is the ICU locale ID; `target_region` its region (or likely
    /// region); `digits` the numbering system's digits.
    pub fn new(locale: &str, target_region: &str, digits: &[char]) -> ZoneNames {
        let zs = |key: &str| data::lookup_str("zone", locale, &format!("zoneStrings/{key}")).filter(|s| !s.is_empty());
        let gmt = zs("gmtFormat").unwrap_or("GMT{0}");
        let (prefix, suffix) = match gmt.find("{0}") {
            Some(i) => (unquote(&gmt[..i]), unquote(&gmt[i + 3..])),
            None => ("GMT".to_string(), String::new()),
        };
        let hour = zs("hourFormat").unwrap_or("+H:mm;-H:mm");
        let (pos, neg) = match hour.split_once(';') {
            Some((p, n)) => (p.to_string(), n.to_string()),
            None => ("+H:mm".to_string(), "-H:mm".to_string()),
        };
        let offset_patterns = [
            parse_offset_pattern(&truncate_offset_pattern(&pos)),
            parse_offset_pattern(&pos),
            parse_offset_pattern(&expand_offset_pattern(&pos)),
            parse_offset_pattern(&truncate_offset_pattern(&neg)),
            parse_offset_pattern(&neg),
            parse_offset_pattern(&expand_offset_pattern(&neg)),
        ];
        ZoneNames {
            locale: locale.to_string(),
            target_region: target_region.to_string(),
            gmt_prefix: prefix,
            gmt_suffix: suffix,
            offset_patterns,
            digits: if digits.len() == 10 {
                digits.to_vec()
            } else {
                "0123456789".chars().collect()
            },
            region_format: zs("regionFormat").unwrap_or("{0}").to_string(),
            fallback_format: zs("fallbackFormat").unwrap_or("{1} ({0})").to_string(),
        }
    }

    /// A name from `zoneStrings/<key>/<type>` with fallback, honouring CLDR's
    /// no-inheritance marker.
    fn name(&self, key: &str, ty: &str) -> Option<String> {
        for (_, b) in data::chain("zone", &self.locale) {
            let Some(entry) = b.get("zoneStrings").and_then(|z| z.get(key)) else {
                continue;
            };
            if let Some(v) = entry.get(ty).and_then(Res::str) {
                if v == NO_INHERITANCE {
                    return None;
                }
                return Some(v.to_string());
            }
        }
        None
    }

    fn exemplar_location(&self, id: &str) -> Option<String> {
        if let Some(ec) = self.name(&zone_key(id), "ec") {
            return Some(ec);
        }
        // TimeZoneNamesImpl::getDefaultExemplarLocationName
        if id.starts_with("Etc/") || id.starts_with("SystemV/") || !id.contains('/') {
            return None;
        }
        let last = id.rsplit('/').next()?;
        Some(last.replace('_', " "))
    }

    fn digit(&self, d: i32) -> char {
        self.digits.get(d as usize).copied().unwrap_or('0')
    }

    fn append_digits(&self, out: &mut String, n: i32, min: usize) {
        let count = if n >= 10 { 2 } else { 1 };
        for _ in count..min {
            out.push(self.digit(0));
        }
        if n >= 10 {
            out.push(self.digit(n / 10));
        }
        out.push(self.digit(n % 10));
    }

    /// The localized GMT format ("GMT-5", "GMT-05:00").
    pub fn localized_gmt(&self, offset_ms: i32, short: bool) -> String {
        let positive = offset_ms >= 0;
        let a = offset_ms.abs();
        let h = a / 3_600_000;
        let m = (a % 3_600_000) / 60_000;
        let s = (a % 60_000) / 1000;
        let base = if positive { 0 } else { 3 };
        let items = if s != 0 {
            &self.offset_patterns[base + 2]
        } else if m != 0 || !short {
            &self.offset_patterns[base + 1]
        } else {
            &self.offset_patterns[base]
        };
        let mut out = self.gmt_prefix.clone();
        for item in items {
            match item {
                OffsetItem::Text(t) => out.push_str(t),
                OffsetItem::Hour => self.append_digits(&mut out, h, if short { 1 } else { 2 }),
                OffsetItem::Minute => self.append_digits(&mut out, m, 2),
                OffsetItem::Second => self.append_digits(&mut out, s, 2),
            }
        }
        out.push_str(&self.gmt_suffix);
        out
    }

    /// TimeZoneNamesImpl::getDisplayName: the zone's own name, else its metazone's.
    fn display_name(&self, id: &str, ty: NameType, epoch_ms: f64) -> Option<String> {
        if let Some(n) = self.name(&zone_key(id), ty.key()) {
            return Some(n);
        }
        let mz = metazone(id, epoch_ms)?;
        self.name(&format!("meta:{mz}"), ty.key())
    }

    fn metazone_name(&self, mz: &str, ty: NameType) -> Option<String> {
        self.name(&format!("meta:{mz}"), ty.key())
    }

    /// `z` / `zzzz`.
    pub fn specific(&self, zone: &Zone, epoch_ms: f64, long: bool) -> String {
        if let Zone::Named { id, .. } = zone {
            let (_, dst) = zone.offsets(epoch_ms);
            let ty = match (long, dst != 0) {
                (true, true) => NameType::LongDaylight,
                (true, false) => NameType::LongStandard,
                (false, true) => NameType::ShortDaylight,
                (false, false) => NameType::ShortStandard,
            };
            if let Some(n) = self.display_name(id, ty, epoch_ms) {
                return n;
            }
        }
        self.localized_gmt(zone.total_offset_ms(epoch_ms), !long)
    }

    /// `v` / `vvvv`.
    pub fn generic(&self, zone: &Zone, epoch_ms: f64, long: bool) -> String {
        if let Zone::Named { id, .. } = zone {
            if let Some(n) = self.generic_non_location(zone, id, epoch_ms, long) {
                return n;
            }
            if let Some(n) = self.generic_location(id) {
                return n;
            }
        }
        self.localized_gmt(zone.total_offset_ms(epoch_ms), !long)
    }

    /// `VVVV`: "{country} Time" or "{city} Time".
    pub fn generic_location(&self, id: &str) -> Option<String> {
        let (region, primary) = zone_info(id)?;
        if region == "001" || region.is_empty() {
            return None;
        }
        let place = if primary {
            super::names::region_name(&self.locale, region).unwrap_or_else(|| region.to_string())
        } else {
            self.exemplar_location(id)?
        };
        Some(self.region_format.replace("{0}", &place))
    }

    fn generic_non_location(&self, zone: &Zone, id: &str, epoch_ms: f64, long: bool) -> Option<String> {
        let generic_ty = if long {
            NameType::LongGeneric
        } else {
            NameType::ShortGeneric
        };
        if let Some(n) = self.name(&zone_key(id), generic_ty.key()) {
            return Some(n);
        }
        let mz = metazone(id, epoch_ms)?;
        let (raw, sav) = zone.offsets(epoch_ms);
        let mut name = None;
        if sav == 0 && !zone.dst_near(epoch_ms, 184.0 * MS_PER_DAY) {
            let std_ty = if long {
                NameType::LongStandard
            } else {
                NameType::ShortStandard
            };
            if let Some(std_name) = self.display_name(id, std_ty, epoch_ms) {
                let generic = self.metazone_name(mz, generic_ty);
                let same = generic
                    .as_deref()
                    .map(|g| g.to_lowercase() == std_name.to_lowercase())
                    .unwrap_or(false);
                if !same {
                    name = Some(std_name);
                }
            }
        }
        if name.is_none() {
            let mz_name = self.metazone_name(mz, generic_ty)?;
            match reference_zone(mz, &self.target_region) {
                Some(golden) if golden != id => {
                    let golden_zone = Zone::named(golden)?;
                    let wall = epoch_ms + f64::from(raw + sav);
                    let (raw1, sav1) = golden_wall_offsets(&golden_zone, wall);
                    if raw != raw1 || sav != sav1 {
                        name = Some(self.partial_location(id, mz, &mz_name));
                    } else {
                        name = Some(mz_name);
                    }
                }
                _ => name = Some(mz_name),
            }
        }
        name
    }

    /// `getPartialLocationName`: "{location} ({metazone name})", the
    /// location being the country when the zone is the metazone's zone
    /// there, else the city.
    fn partial_location(&self, id: &str, mz: &str, mz_name: &str) -> String {
        let location = match zone_info(id) {
            Some((region, _)) if region != "001" && !region.is_empty() => {
                if reference_zone(mz, region) == Some(id) {
                    super::names::region_name(&self.locale, region).unwrap_or_else(|| region.to_string())
                } else {
                    self.exemplar_location(id).unwrap_or_default()
                }
            }
            _ => self.exemplar_location(id).unwrap_or_else(|| id.to_string()),
        };
        self.fallback_format.replace("{1}", mz_name).replace("{0}", &location)
    }
}

/// Offsets of a zone for a *wall* time (ICU's `getOffset(date, local=true)`).
fn golden_wall_offsets(zone: &Zone, wall_ms: f64) -> (i32, i32) {
    // A wall time read as ICU does (OlsonTimeZone with kFormer/kLatter):
    // one that happens twice takes the later offset, one that never happens
    // the offset from before the change.
    let before = f64::from(zone.total_offset_ms(wall_ms - 86_400_000.0));
    let after = f64::from(zone.total_offset_ms(wall_ms + 86_400_000.0));
    let (early, late) = (wall_ms - before, wall_ms - after);
    let early_ok = f64::from(zone.total_offset_ms(early)) == before;
    let late_ok = f64::from(zone.total_offset_ms(late)) == after;
    match (early_ok, late_ok) {
        (_, true) => zone.offsets(late),
        (true, false) => zone.offsets(early),
        (false, false) => zone.offsets(early.min(late)),
    }
}
