//! `formatRange` for DateTimeFormat: ICU's DateIntervalFormat in outline.
//! The greatest calendar field in which the two dates differ picks an
//! interval pattern from CLDR's `intervalFormats` for the format's
//! skeleton (widths adjusted to the skeleton); a date and time whose dates
//! agree get the time's interval joined to the date; otherwise the two
//! full formats are joined by the locale's fallback pattern.

use super::data;
use super::datefmt::{self, DateFormat, Part};
use super::dtf::{self, DateTimeFormat};
use super::dtpg;

/// A range part: type, text, and "startRange", "endRange" or "shared".
pub type RangePart = (&'static str, String, &'static str);

/// ICU's level of the greatest calendar field in which two instants
/// differ (era 0, year 10, month 20, day 30, am/pm 40, hour 50, minute
/// 60, second 70, millisecond 80).
fn difference_level(f: &DateTimeFormat, a: f64, b: f64) -> Option<u8> {
    let fa = datefmt::fields(&f.format.calendar, a + f64::from(f.zone.total_offset_ms(a)));
    let fb = datefmt::fields(&f.format.calendar, b + f64::from(f.zone.total_offset_ms(b)));
    if fa.era != fb.era {
        Some(0)
    } else if fa.year != fb.year || fa.related_year != fb.related_year {
        Some(10)
    } else if fa.month != fb.month || fa.leap_month != fb.leap_month {
        Some(20)
    } else if fa.day != fb.day {
        Some(30)
    } else if (fa.hour >= 12) != (fb.hour >= 12) {
        Some(40)
    } else if fa.hour != fb.hour {
        Some(50)
    } else if fa.minute != fb.minute {
        Some(60)
    } else if fa.second != fb.second {
        Some(70)
    } else if fa.millisecond != fb.millisecond {
        Some(80)
    } else {
        None
    }
}

/// SimpleDateFormat::isFieldUnitIgnored: no field of the pattern is as
/// large as or larger than the differing one.
fn field_unit_ignored(pattern: &str, level: u8) -> bool {
    let char_level = |c: char| -> Option<u8> {
        Some(match c {
            'G' | 'O' | 'V' | 'X' | 'Z' | 'g' | 'l' | 'v' | 'x' | 'z' => 0,
            'U' | 'Y' | 'r' | 'u' | 'y' => 10,
            'D' | 'L' | 'M' | 'Q' | 'q' | 'w' => 20,
            'E' | 'F' | 'W' | 'c' | 'd' | 'e' => 30,
            'A' | 'a' => 40,
            'H' | 'K' | 'h' | 'k' => 50,
            'm' => 60,
            's' => 70,
            'S' => 80,
            _ => return None,
        })
    };
    let mut in_quote = false;
    for c in pattern.chars() {
        if c == '\'' {
            in_quote = !in_quote;
        } else if !in_quote
            && let Some(l) = char_level(c)
            && level <= l
        {
            return false;
        }
    }
    true
}

/// The greatest differing field as an intervalFormats key.
fn greatest_difference(f: &DateTimeFormat, a: f64, b: f64, skeleton: &str) -> Option<char> {
    let fa = datefmt::fields(&f.format.calendar, a + f64::from(f.zone.total_offset_ms(a)));
    let fb = datefmt::fields(&f.format.calendar, b + f64::from(f.zone.total_offset_ms(b)));
    let twelve = skeleton.contains('h') || skeleton.contains('K');
    if fa.era != fb.era {
        return Some('G');
    }
    if fa.year != fb.year || fa.related_year != fb.related_year {
        return Some('y');
    }
    if fa.month != fb.month || fa.leap_month != fb.leap_month {
        return Some('M');
    }
    if fa.day != fb.day {
        return Some('d');
    }
    if (fa.hour >= 12) != (fb.hour >= 12) && twelve {
        return Some('a');
    }
    if fa.hour != fb.hour {
        return Some(if twelve { 'h' } else { 'H' });
    }
    if fa.minute != fb.minute {
        return Some('m');
    }
    if fa.second != fb.second || fa.millisecond != fb.millisecond {
        return Some('s');
    }
    None
}

/// The skeletons the locale has interval patterns for.
fn interval_keys(f: &DateTimeFormat) -> Vec<&'static str> {
    let calendar = dtpg::calendar_for_patterns(&f.info);
    let mut keys: Vec<&'static str> = Vec::new();
    data::each_table_with_fallback(
        "",
        &f.info.base_name,
        &format!("calendar/{calendar}/intervalFormats"),
        &mut |t| {
            for (k, _) in t.entries() {
                if k != "fallback" && !keys.contains(&k) {
                    keys.push(k);
                }
            }
        },
    );
    keys
}

/// Whether CLDR has interval patterns for the skeleton's fields (ICU's
/// getBestSkeleton with a difference other than -1).
fn has_interval_patterns(f: &DateTimeFormat, skeleton: &str) -> bool {
    dtpg::closest_skeleton(&skeleton.replace('z', "v"), &interval_keys(f)).is_some()
}

/// The intervalFormats pattern for `skeleton` and field, widths adjusted.
fn interval_pattern(f: &DateTimeFormat, skeleton: &str, field: char) -> Option<String> {
    let calendar = dtpg::calendar_for_patterns(&f.info);
    let base = &f.info.base_name;
    let keys = interval_keys(f);
    // ICU looks specific zone names up as generic ones and puts 'z' back.
    let zone_count = skeleton.chars().filter(|&c| c == 'z').count();
    let generic_skeleton = skeleton.replace('z', "v");
    let skeleton = generic_skeleton.as_str();
    let best = dtpg::closest_skeleton(skeleton, &keys)?;
    let field_key = field.to_string();
    let mut pattern = data::lookup_str(
        "",
        base,
        &format!("calendar/{calendar}/intervalFormats/{best}/{field_key}"),
    );
    if pattern.is_none() && field == 'H' {
        pattern = data::lookup_str("", base, &format!("calendar/{calendar}/intervalFormats/{best}/h"));
    }
    let pattern = dtpg::adjust_widths(pattern?, best, skeleton);
    if zone_count == 0 {
        return Some(pattern);
    }
    let zone = if zone_count >= 4 { "zzzz" } else { "z" };
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    let mut in_quote = false;
    while let Some(c) = chars.next() {
        if c == '\'' {
            in_quote = !in_quote;
        }
        if c == 'v' && !in_quote {
            while chars.peek() == Some(&'v') {
                chars.next();
            }
            out.push_str(zone);
        } else {
            out.push(c);
        }
    }
    Some(out)
}

fn fallback_pattern(f: &DateTimeFormat) -> String {
    let calendar = dtpg::calendar_for_patterns(&f.info);
    data::lookup_str(
        "",
        &f.info.base_name,
        &format!("calendar/{calendar}/intervalFormats/fallback"),
    )
    .unwrap_or("{0} – {1}")
    .to_string()
}

/// Splits an interval pattern at its first repeated field.
fn split_interval(pattern: &str) -> (String, String) {
    let chars: Vec<char> = pattern.chars().collect();
    let mut seen: Vec<char> = Vec::new();
    let mut in_quote = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            in_quote = !in_quote;
            i += 1;
            continue;
        }
        if !in_quote && c.is_ascii_alphabetic() {
            let norm = match c {
                'L' => 'M',
                'c' | 'e' => 'E',
                'K' | 'k' | 'H' => 'h',
                other => other,
            };
            if seen.contains(&norm) {
                return (chars[..i].iter().collect(), chars[i..].iter().collect());
            }
            seen.push(norm);
            while i < chars.len() && chars[i] == c {
                i += 1;
            }
            continue;
        }
        i += 1;
    }
    (pattern.to_string(), String::new())
}

fn format_with(f: &DateTimeFormat, pattern: &str, t: f64) -> Vec<Part> {
    let df = DateFormat::new(
        pattern,
        &f.info.base_name,
        &f.format.calendar,
        f.digits.clone(),
        f.zone.clone(),
        &f.format_region(),
    );
    df.format_to_parts(t)
}

/// Marks a half: its fields span (first field to last field) gets `source`,
/// literals outside the span are shared.
fn mark(parts: Vec<Part>, source: &'static str, span_fields_only: Option<&[&str]>) -> Vec<RangePart> {
    let is_field = |t: &str| t != "literal" && span_fields_only.map(|only| only.contains(&t)).unwrap_or(true);
    let first = parts.iter().position(|(t, _)| is_field(t));
    let last = parts.iter().rposition(|(t, _)| is_field(t));
    parts
        .into_iter()
        .enumerate()
        .map(|(i, (t, v))| {
            let inside = matches!((first, last), (Some(a), Some(b)) if i >= a && i <= b);
            (t, v, if inside { source } else { "shared" })
        })
        .collect()
}

/// DateIntervalFormat::getDateTimeSkeleton: the skeleton's date and time
/// parts as given, and normalized for looking interval patterns up (one
/// hour, minute and zone letter; numeric months and days as one letter).
fn date_time_skeletons(skeleton: &str) -> (String, String, String) {
    let (mut date, mut time, mut norm_date, mut norm_time) =
        (String::new(), String::new(), String::new(), String::new());
    let (mut e, mut d, mut m_month, mut y, mut minute, mut v, mut z) = (0, 0, 0, 0, 0, 0, 0);
    let mut hour: Option<char> = None;
    for c in skeleton.chars() {
        match c {
            'E' => e += 1,
            'd' => d += 1,
            'M' => m_month += 1,
            'y' => y += 1,
            'G' | 'Y' | 'u' | 'Q' | 'q' | 'L' | 'l' | 'W' | 'w' | 'D' | 'F' | 'g' | 'e' | 'c' | 'U' | 'r' => {
                norm_date.push(c)
            }
            'a' => {}
            'h' | 'H' | 'k' | 'K' => {
                hour.get_or_insert(c);
            }
            'm' => minute += 1,
            'z' => z += 1,
            'v' => v += 1,
            'V' | 'Z' | 'j' | 's' | 'S' | 'A' | 'b' | 'B' => norm_time.push(c),
            _ => continue,
        }
        if "EdMyGYuQqLlWwDFgecUr".contains(c) {
            date.push(c);
        } else {
            time.push(c);
        }
    }
    norm_date.push_str(&"y".repeat(y));
    match m_month {
        0 => {}
        1 | 2 => norm_date.push('M'),
        n => norm_date.push_str(&"M".repeat(n.min(5))),
    }
    match e {
        0 => {}
        1..=3 => norm_date.push('E'),
        n => norm_date.push_str(&"E".repeat(n.min(5))),
    }
    if d > 0 {
        norm_date.push('d');
    }
    if let Some(h) = hour {
        norm_time.push(h);
    }
    for (count, letter) in [(minute, 'm'), (z, 'z'), (v, 'v')] {
        if count > 0 {
            norm_time.push(letter);
        }
    }
    let normalized = if time.is_empty() { norm_date } else { norm_time };
    (date, time, normalized)
}

pub fn format_range(f: &DateTimeFormat, a: f64, b: f64) -> Vec<RangePart> {
    let pattern = &f.pattern;
    let skeleton = dtf::skeleton_of_pattern(pattern);
    // DateIntervalFormat formats with its own pattern for the skeleton
    // (hour width from the locale's data).
    let own = f.plain_generator_pattern(&skeleton);
    let first: Vec<Part> = format_with(f, &own, a);
    let second: Vec<Part> = format_with(f, &own, b);
    let single = |parts: Vec<Part>| parts.into_iter().map(|(t, v)| (t, v, "shared")).collect();
    // ICU formats one date when the dates agree down to the millisecond.
    let (Some(level), Some(field)) = (difference_level(f, a, b), greatest_difference(f, a, b, &skeleton)) else {
        return single(first);
    };
    let (date_sk, time_sk, normalized) = date_time_skeletons(&skeleton);
    let date_field = level <= 30;
    let found = has_interval_patterns(f, &normalized);
    // The fallback patterns ICU sets up for dates that differ: a time-only
    // format gains a short date; a date and time format with interval
    // patterns for its time gains the date fields it lacks.
    if date_field && !time_sk.is_empty() {
        let extended = if date_sk.is_empty() {
            Some(format!("yMd{time_sk}"))
        } else if found {
            let mut sk = skeleton.clone();
            let mut extended = None;
            for (letter, letter_level) in [('d', 30), ('M', 20), ('y', 10), ('G', 0)] {
                let present = date_sk.contains(letter) || (letter == 'M' && date_sk.contains('L'));
                if !present {
                    sk.insert(0, letter);
                    if level == letter_level {
                        extended = Some(sk.clone());
                    }
                }
            }
            extended
        } else {
            None
        };
        if let Some(sk) = extended {
            let p = f.plain_generator_pattern(&sk);
            return join_fallback(f, format_with(f, &p, a), format_with(f, &p, b));
        }
    }
    let interval = if !found || (date_field && !time_sk.is_empty() && !date_sk.is_empty()) {
        None
    } else if !date_sk.is_empty() && !time_sk.is_empty() {
        // The date agrees: the date joined to the time's interval.
        interval_pattern(f, &normalized, field).map(|tp| f.glue(&f.plain_generator_pattern(&date_sk), &tp, &date_sk))
    } else {
        interval_pattern(f, &normalized, field)
    };
    if let Some(ip) = interval {
        return interval_parts(f, &ip, a, b);
    }
    // No interval pattern for the field: one date when the pattern shows
    // nothing as large as the field, else the two dates in the fallback
    // pattern (the date once when both fall on the same day).
    if field_unit_ignored(&own, level) {
        return single(first);
    }
    if !date_field && !date_sk.is_empty() && !time_sk.is_empty() {
        let time_pattern = f.plain_generator_pattern(&time_sk);
        let times = join_fallback(f, format_with(f, &time_pattern, a), format_with(f, &time_pattern, b));
        let date = format_with(f, &f.plain_generator_pattern(&date_sk), a);
        return glue_parts(f, date, times);
    }
    join_fallback(f, first, second)
}

/// The two halves of an interval pattern, each formatted.
fn interval_parts(f: &DateTimeFormat, ip: &str, a: f64, b: f64) -> Vec<RangePart> {
    let (p1, p2) = split_interval(ip);
    let mut out = mark(format_with(f, &p1, a), "startRange", None);
    let second_parts = format_with(f, &p2, b);
    // Only the fields that repeat belong to the end range.
    let repeated: Vec<&'static str> = {
        let firsts: Vec<&str> = out.iter().map(|(t, _, _)| *t).filter(|t| *t != "literal").collect();
        second_parts
            .iter()
            .map(|(t, _)| *t)
            .filter(|t| *t != "literal" && firsts.contains(t))
            .collect()
    };
    out.extend(mark(second_parts, "endRange", Some(&repeated)));
    merge(out)
}

/// Two formatted dates in the locale's fallback pattern ("{0} – {1}").
fn join_fallback(f: &DateTimeFormat, first: Vec<Part>, second: Vec<Part>) -> Vec<RangePart> {
    let fallback = fallback_pattern(f);
    let mut out: Vec<RangePart> = Vec::new();
    let mut rest = fallback.as_str();
    while !rest.is_empty() {
        if let Some(stripped) = rest.strip_prefix("{0}") {
            out.extend(first.iter().cloned().map(|(t, v)| (t, v, "startRange")));
            rest = stripped;
        } else if let Some(stripped) = rest.strip_prefix("{1}") {
            out.extend(second.iter().cloned().map(|(t, v)| (t, v, "endRange")));
            rest = stripped;
        } else {
            let next = rest.find('{').filter(|&i| i > 0).unwrap_or(rest.len());
            out.push(("literal", rest[..next].to_string(), "shared"));
            rest = &rest[next..];
        }
    }
    merge(out)
}

/// A date (shared) and a time range in the locale's date-time glue.
fn glue_parts(f: &DateTimeFormat, date: Vec<Part>, times: Vec<RangePart>) -> Vec<RangePart> {
    let glue = f.glue("{1}", "{0}", "");
    let mut out: Vec<RangePart> = Vec::new();
    let mut rest = glue.as_str();
    while !rest.is_empty() {
        if let Some(stripped) = rest.strip_prefix("{0}") {
            out.extend(times.iter().cloned());
            rest = stripped;
        } else if let Some(stripped) = rest.strip_prefix("{1}") {
            out.extend(date.iter().cloned().map(|(t, v)| (t, v, "shared")));
            rest = stripped;
        } else {
            let next = rest.find('{').filter(|&i| i > 0).unwrap_or(rest.len());
            out.push(("literal", rest[..next].to_string(), "shared"));
            rest = &rest[next..];
        }
    }
    merge(out)
}

fn merge(parts: Vec<RangePart>) -> Vec<RangePart> {
    let mut out: Vec<RangePart> = Vec::with_capacity(parts.len());
    for p in parts {
        if p.1.is_empty() {
            continue;
        }
        if p.0 == "literal"
            && let Some(last) = out.last_mut()
            && last.0 == "literal"
            && last.2 == p.2
        {
            last.1.push_str(&p.1);
            continue;
        }
        out.push(p);
    }
    out
}
