//! `Intl.DateTimeFormat` as V8 builds it (v8 `js-date-time-format.cc`):
//! option values (already read and checked by the JavaScript side, in the
//! spec's order) become a skeleton or style pattern, through ICU's
//! DateTimePatternGenerator ([`super::dtpg`]), then a SimpleDateFormat
//! ([`super::datefmt`]).

use super::data::{self, Res};
use super::datefmt::{self, DateFormat};
use super::dtpg::{self, Generator, LocaleInfo};
use super::locale::{self, Service};
use super::tz::Zone;
use std::collections::BTreeMap;

#[derive(Default, Debug, Clone)]
pub struct Options {
    pub locales: Vec<String>,
    pub calendar: Option<String>,
    pub numbering_system: Option<String>,
    pub hour12: Option<bool>,
    pub hour_cycle: Option<String>,
    pub time_zone: Option<String>,
    pub weekday: Option<String>,
    pub era: Option<String>,
    pub year: Option<String>,
    pub month: Option<String>,
    pub day: Option<String>,
    pub day_period: Option<String>,
    pub hour: Option<String>,
    pub minute: Option<String>,
    pub second: Option<String>,
    pub fractional_second_digits: Option<u8>,
    pub time_zone_name: Option<String>,
    pub date_style: Option<String>,
    pub time_style: Option<String>,
    /// "any", "date" or "time" (ToDateTimeOptions' required).
    pub required: String,
    /// "date", "time" or "all".
    pub defaults: String,
    /// The default time zone (the node's; Kyma pods run in UTC).
    pub default_time_zone: String,
}

#[derive(Debug)]
pub enum Error {
    Range(String),
    Type(String),
}

pub struct DateTimeFormat {
    pub locale: String,
    pub calendar: String,
    pub numbering_system: String,
    pub time_zone: String,
    pub hour_cycle: Option<&'static str>,
    pub date_style: Option<String>,
    pub time_style: Option<String>,
    pub pattern: String,
    /// ICU locale ID used for data (with keywords folded into `info`).
    pub info: LocaleInfo,
    pub format: DateFormat,
    pub zone: Zone,
    pub digits: Vec<char>,
    generator: Generator,
    target_region: String,
}

fn hc_letter(hc: &str) -> char {
    match hc {
        "h11" => 'K',
        "h12" => 'h',
        "h24" => 'k',
        _ => 'H',
    }
}

fn hc_from_letter(c: u8) -> &'static str {
    match c {
        b'K' => "h11",
        b'h' => "h12",
        b'k' => "h24",
        _ => "h23",
    }
}

/// V8's ReplaceHourCycleInPattern.
fn replace_hour_cycle(pattern: &str, hc: Option<&str>) -> String {
    let Some(hc) = hc else {
        return pattern.to_string();
    };
    let replacement = hc_letter(hc);
    let mut replace = true;
    let mut out = String::new();
    let mut last = '\0';
    for ch in pattern.chars() {
        match ch {
            '\'' => {
                replace = !replace;
                out.push(ch);
            }
            'H' | 'h' | 'K' | 'k' => {
                if replace && last == 'd' {
                    out.push(' ');
                }
                out.push(if replace { replacement } else { ch });
            }
            _ => out.push(ch),
        }
        last = ch;
    }
    out
}

fn hour_cycle_from_pattern(pattern: &str) -> Option<&'static str> {
    let mut in_quote = false;
    for ch in pattern.chars() {
        match ch {
            '\'' => in_quote = !in_quote,
            'K' if !in_quote => return Some("h11"),
            'h' if !in_quote => return Some("h12"),
            'H' if !in_quote => return Some("h23"),
            'k' if !in_quote => return Some("h24"),
            _ => {}
        }
    }
    None
}

/// `staticGetSkeleton`: a pattern's skeleton, quoted text and literals dropped.
pub fn skeleton_of_pattern(pattern: &str) -> String {
    dtpg::pattern_skeleton(pattern)
}

fn replace_skeleton(skeleton: &str, hc: &str) -> String {
    let to = hc_letter(hc);
    skeleton
        .chars()
        .filter(|c| !matches!(c, 'a' | 'b' | 'B'))
        .map(|c| if matches!(c, 'h' | 'H' | 'K' | 'k') { to } else { c })
        .collect()
}

/// `Calendar::getCalendarTypeForLocale`: the `ca` keyword, else the
/// region's preferred calendar.
pub fn calendar_type(info: &LocaleInfo) -> String {
    if let Some(c) = &info.calendar_keyword {
        return c.clone();
    }
    let region = info
        .region_override
        .clone()
        .filter(|r| !r.is_empty())
        .unwrap_or_else(|| {
            if info.region.is_empty() {
                info.likely_region.clone()
            } else {
                info.region.clone()
            }
        });
    let prefs = data::bundle("supplementalData").and_then(|s| s.get("calendarPreferenceData"));
    prefs
        .and_then(|p| p.get(&region).or_else(|| p.get("001")))
        .and_then(|list| list.index(0))
        .and_then(Res::str)
        .unwrap_or("gregorian")
        .to_string()
}

/// NumberingSystem::createInstance: `nu`, else the locale's default; its digits.
pub fn numbering_system(base_icu_id: &str, keyword: Option<&str>) -> (String, Vec<char>) {
    let mut name = keyword.unwrap_or("default").to_string();
    let mut resolved = !matches!(name.as_str(), "default" | "native" | "traditional" | "finance");
    let mut guard = 0;
    while !resolved && guard < 4 {
        guard += 1;
        match data::lookup_str("", base_icu_id, &format!("NumberElements/{name}")) {
            Some(ns) if !ns.is_empty() => {
                name = ns.to_string();
                resolved = true;
            }
            _ => {
                name = match name.as_str() {
                    "native" | "finance" => "default".into(),
                    "traditional" => "native".into(),
                    _ => {
                        name = "latn".into();
                        break;
                    }
                }
            }
        }
    }
    let digits = digits_of(&name).unwrap_or_else(|| {
        name = "latn".into();
        "0123456789".chars().collect()
    });
    (name, digits)
}

/// The ten digits of a numeric numbering system.
pub fn digits_of(ns: &str) -> Option<Vec<char>> {
    let entry = data::bundle("numberingSystems")?.get("numberingSystems")?.get(ns)?;
    if entry.get("algorithmic").and_then(Res::int).unwrap_or(0) != 0 {
        return None;
    }
    let digits: Vec<char> = entry.get("desc")?.str()?.chars().collect();
    (digits.len() == 10).then_some(digits)
}

pub fn is_valid_numbering_system(ns: &str) -> bool {
    !matches!(ns, "native" | "traditio" | "finance") && digits_of(ns).is_some()
}

pub fn is_valid_calendar(ca: &str) -> bool {
    data::meta("supportedValues/calendar")
        .map(|l| l.strings().contains(&ca))
        .unwrap_or(false)
        || matches!(ca, "islamicc" | "ethiopic-amete-alem")
}

fn keyword_check(key: &str, value: &str, _locale: &str) -> bool {
    match key {
        "ca" => is_valid_calendar(value),
        "nu" => is_valid_numbering_system(value),
        "hc" => matches!(value, "h11" | "h12" | "h23" | "h24"),
        _ => false,
    }
}

/// Builds the generator's view of a locale.
pub fn locale_info(base_tag: &str, keywords: &BTreeMap<String, String>) -> LocaleInfo {
    let sub = locale::subtags(base_tag);
    let (likely_language, likely_region) = match data::meta(&format!("likely/{base_tag}")).and_then(Res::str) {
        Some(max) => {
            let m = locale::subtags(max);
            (m.language, m.region)
        }
        None => {
            let m = locale::maximize(base_tag);
            (m.language, m.region)
        }
    };
    LocaleInfo {
        base_name: locale::icu_id(base_tag),
        language: sub.language,
        region: sub.region,
        likely_language,
        likely_region,
        calendar_keyword: keywords
            .get("ca")
            .and_then(|c| datefmt::icu_calendar_name(c))
            .map(str::to_string),
        hour_cycle_keyword: keywords.get("hc").cloned(),
        region_override: None,
    }
}

struct PatternItem {
    property: &'static str,
    pairs: &'static [(&'static str, &'static str)],
}

/// V8's pattern items: in the order resolvedOptions reports fields.
static PATTERN_ITEMS: &[PatternItem] = &[
    PatternItem {
        property: "weekday",
        pairs: &[
            ("EEEEE", "narrow"),
            ("EEEE", "long"),
            ("EEE", "short"),
            ("ccccc", "narrow"),
            ("cccc", "long"),
            ("ccc", "short"),
        ],
    },
    PatternItem {
        property: "era",
        pairs: &[("GGGGG", "narrow"), ("GGGG", "long"), ("GGG", "short")],
    },
    PatternItem {
        property: "year",
        pairs: &[("yy", "2-digit"), ("y", "numeric")],
    },
    PatternItem {
        property: "month",
        pairs: &[
            ("MMMMM", "narrow"),
            ("MMMM", "long"),
            ("MMM", "short"),
            ("MM", "2-digit"),
            ("M", "numeric"),
            ("LLLLL", "narrow"),
            ("LLLL", "long"),
            ("LLL", "short"),
            ("LL", "2-digit"),
            ("L", "numeric"),
        ],
    },
    PatternItem {
        property: "day",
        pairs: &[("dd", "2-digit"), ("d", "numeric")],
    },
    PatternItem {
        property: "dayPeriod",
        pairs: &[
            ("BBBBB", "narrow"),
            ("bbbbb", "narrow"),
            ("BBBB", "long"),
            ("bbbb", "long"),
            ("B", "short"),
            ("b", "short"),
        ],
    },
    PatternItem {
        property: "hour",
        pairs: &[
            ("HH", "2-digit"),
            ("H", "numeric"),
            ("hh", "2-digit"),
            ("h", "numeric"),
            ("kk", "2-digit"),
            ("k", "numeric"),
            ("KK", "2-digit"),
            ("K", "numeric"),
        ],
    },
    PatternItem {
        property: "minute",
        pairs: &[("mm", "2-digit"), ("m", "numeric")],
    },
    PatternItem {
        property: "second",
        pairs: &[("ss", "2-digit"), ("s", "numeric")],
    },
    PatternItem {
        property: "timeZoneName",
        pairs: &[
            ("zzzz", "long"),
            ("z", "short"),
            ("OOOO", "longOffset"),
            ("O", "shortOffset"),
            ("vvvv", "longGeneric"),
            ("v", "shortGeneric"),
        ],
    },
];

fn skeleton_for(property: &str, value: &str, hc: &str) -> &'static str {
    match (property, value) {
        ("weekday", "narrow") => "EEEEE",
        ("weekday", "long") => "EEEE",
        ("weekday", _) => "EEE",
        ("era", "narrow") => "GGGGG",
        ("era", "long") => "GGGG",
        ("era", _) => "GGG",
        ("year", "2-digit") => "yy",
        ("year", _) => "y",
        ("month", "narrow") => "MMMMM",
        ("month", "long") => "MMMM",
        ("month", "short") => "MMM",
        ("month", "2-digit") => "MM",
        ("month", _) => "M",
        ("day", "2-digit") => "dd",
        ("day", _) => "d",
        ("dayPeriod", "narrow") => "BBBBB",
        ("dayPeriod", "long") => "BBBB",
        ("dayPeriod", _) => "B",
        ("hour", "2-digit") => match hc {
            "h11" => "KK",
            "h12" => "hh",
            "h24" => "kk",
            "h23" => "HH",
            _ => "jj",
        },
        ("hour", _) => match hc {
            "h11" => "K",
            "h12" => "h",
            "h24" => "k",
            "h23" => "H",
            _ => "j",
        },
        ("minute", "2-digit") => "mm",
        ("minute", _) => "m",
        ("second", "2-digit") => "ss",
        ("second", _) => "s",
        ("timeZoneName", "long") => "zzzz",
        ("timeZoneName", "shortOffset") => "O",
        ("timeZoneName", "longOffset") => "OOOO",
        ("timeZoneName", "shortGeneric") => "v",
        ("timeZoneName", "longGeneric") => "vvvv",
        ("timeZoneName", _) => "z",
        _ => "",
    }
}

fn style_index(style: &str) -> usize {
    match style {
        "full" => 0,
        "long" => 1,
        "medium" => 2,
        _ => 3,
    }
}

/// A DateTimePatterns entry (a string, or [pattern, numbering override]).
fn dtp_entry(patterns: Res, i: usize) -> Option<String> {
    let e = patterns.index(i)?;
    e.str().or_else(|| e.index(0).and_then(Res::str)).map(str::to_string)
}

/// SimpleDateFormat::construct for date/time styles.
fn style_pattern(
    info: &LocaleInfo,
    calendar: &str,
    date_style: Option<&str>,
    time_style: Option<&str>,
    generator: &Generator,
) -> Option<String> {
    let base = &info.base_name;
    let mut patterns = None;
    let mut gregorian = true;
    if calendar != "gregorian" {
        patterns = data::lookup("", base, &format!("calendar/{calendar}/DateTimePatterns"));
        gregorian = patterns.is_none();
    }
    let patterns = match patterns {
        Some(p) => p,
        None => data::lookup("", base, "calendar/gregorian/DateTimePatterns")?,
    };
    let mut time_pattern = String::new();
    if let Some(ts) = time_style {
        // A time style comes from the generator when the locale carries an
        // hour cycle or region override, or when the data locale is not the
        // requested one.
        let actual = data::actual_locale("", base);
        let actual_sub = locale::subtags(&actual.replace('_', "-"));
        let use_dtpg = info.hour_cycle_keyword.is_some()
            || info.region_override.is_some()
            || (actual != *base
                && ((!info.region.is_empty() && info.region != actual_sub.region)
                    || info.language != actual_sub.language));
        if use_dtpg && base != "und" {
            let skeleton = ["jmmsszzzz", "jmmssz", "jmmss", "jmm"][style_index(ts)];
            time_pattern = generator.best_pattern(skeleton, 0);
        }
    }
    match (date_style, time_style) {
        (Some(ds), Some(ts)) => {
            let time = if time_pattern.is_empty() {
                dtp_entry(patterns, style_index(ts))?
            } else {
                time_pattern
            };
            let date = dtp_entry(patterns, 4 + style_index(ds))?;
            let mut at_time = None;
            if !gregorian {
                at_time = data::lookup("", base, &format!("calendar/{calendar}/DateTimePatterns%atTime"));
            }
            if at_time.is_none() {
                at_time = data::lookup("", base, "calendar/gregorian/DateTimePatterns%atTime");
            }
            let glue = match at_time.filter(|a| a.len() >= 4) {
                Some(a) => dtp_entry(a, style_index(ds))?,
                None => {
                    let index = if patterns.len() >= 13 { 9 + style_index(ds) } else { 8 };
                    dtp_entry(patterns, index)?
                }
            };
            let t: Vec<u16> = time.encode_utf16().collect();
            let d: Vec<u16> = date.encode_utf16().collect();
            let g: Vec<u16> = glue.encode_utf16().collect();
            Some(String::from_utf16_lossy(&dtpg::simple_format(&g, &[&t, &d])))
        }
        (None, Some(ts)) => Some(if time_pattern.is_empty() {
            dtp_entry(patterns, style_index(ts))?
        } else {
            time_pattern
        }),
        (Some(ds), None) => dtp_entry(patterns, 4 + style_index(ds)),
        (None, None) => None,
    }
}

impl DateTimeFormat {
    pub fn new(o: &Options) -> Result<DateTimeFormat, Error> {
        let r = locale::resolve(Service::DateTimeFormat, &o.locales, &["ca", "hc", "nu"], keyword_check);
        let mut keywords = r.keywords.clone();
        // The locale string keeps an extension value only when no option overrides it differently.
        let mut locale_keywords = r.keywords.clone();
        if let Some(ca) = &o.calendar {
            if locale_keywords.get("ca").is_some_and(|v| v != ca) {
                locale_keywords.remove("ca");
                keywords.remove("ca");
            }
            if is_valid_calendar(ca) {
                keywords.insert("ca".into(), ca.clone());
            }
        }
        if let Some(nu) = &o.numbering_system {
            if locale_keywords.get("nu").is_some_and(|v| v != nu) {
                locale_keywords.remove("nu");
                keywords.remove("nu");
            }
            if is_valid_numbering_system(nu) {
                keywords.insert("nu".into(), nu.clone());
            }
        }
        let info = locale_info(&r.data_locale, &keywords);
        let calendar = calendar_type(&info);
        let (ns_name, digits) = numbering_system(&info.base_name, keywords.get("nu").map(String::as_str));
        let decimal = data::lookup_str(
            "",
            &info.base_name,
            &format!("NumberElements/{ns_name}/symbols/decimal"),
        )
        .or_else(|| data::lookup_str("", &info.base_name, "NumberElements/latn/symbols/decimal"))
        .unwrap_or(".");
        let generator = Generator::new(&info, &calendar, decimal);
        let hc_default = generator.default_hour_cycle();

        // hour12 overrides hourCycle; both override the -u-hc- keyword.
        let mut hour_cycle = o.hour_cycle.clone();
        if o.hour12.is_some() {
            hour_cycle = None;
        }
        let hc: &'static str = match o.hour12 {
            Some(true) => {
                if hc_default == "h11" || hc_default == "h12" {
                    hc_default
                } else if info.region == "JP" {
                    "h11"
                } else {
                    "h12"
                }
            }
            Some(false) => {
                if hc_default == "h23" || hc_default == "h24" {
                    hc_default
                } else {
                    "h23"
                }
            }
            None => match hour_cycle.as_deref().or(keywords.get("hc").map(String::as_str)) {
                Some(h) => hc_from_letter(hc_letter(h) as u8),
                None => hc_default,
            },
        };

        let zone_name = o.time_zone.clone().unwrap_or_else(|| o.default_time_zone.clone());
        let zone = Zone::resolve(&zone_name)
            .ok_or_else(|| Error::Range(format!("Invalid time zone specified: {zone_name}")))?;

        let component_values: [(&str, &Option<String>); 10] = [
            ("weekday", &o.weekday),
            ("era", &o.era),
            ("year", &o.year),
            ("month", &o.month),
            ("day", &o.day),
            ("dayPeriod", &o.day_period),
            ("hour", &o.hour),
            ("minute", &o.minute),
            ("second", &o.second),
            ("timeZoneName", &o.time_zone_name),
        ];
        let mut skeleton = String::new();
        let mut explicit = false;
        for (name, value) in component_values {
            if name == "timeZoneName"
                && let Some(fsd) = o.fractional_second_digits
            {
                explicit = true;
                for _ in 0..fsd {
                    skeleton.push('S');
                }
            }
            if let Some(v) = value {
                explicit = true;
                skeleton.push_str(skeleton_for(name, v, hc));
            }
        }
        let has_hour = o.hour.is_some();
        let mut dtf_hour_cycle: Option<&'static str> = None;
        let pattern;
        if o.date_style.is_some() || o.time_style.is_some() {
            if explicit {
                return Err(Error::Type("Invalid option : option".into()));
            }
            if o.required == "date" && o.time_style.is_some() {
                return Err(Error::Type("Invalid option : timeStyle".into()));
            }
            if o.required == "time" && o.date_style.is_some() {
                return Err(Error::Type("Invalid option : dateStyle".into()));
            }
            if o.time_style.is_some() {
                dtf_hour_cycle = Some(hc);
            }
            let styled = style_pattern(
                &info,
                &calendar,
                o.date_style.as_deref(),
                o.time_style.as_deref(),
                &generator,
            )
            .ok_or_else(|| Error::Range("Internal error. Icu error.".into()))?;
            pattern = match (o.time_style.is_some(), dtf_hour_cycle) {
                (true, Some(h)) if hour_cycle_from_pattern(&styled) != Some(h) => {
                    let sk = replace_skeleton(&skeleton_of_pattern(&styled), h);
                    replace_hour_cycle(&generator.best_pattern(&sk, dtpg::MATCH_HOUR_FIELD_LENGTH), Some(h))
                }
                _ => styled,
            };
        } else {
            let date_set = [&o.weekday, &o.year, &o.month, &o.day].iter().any(|v| v.is_some());
            let time_set = [&o.day_period, &o.hour, &o.minute, &o.second]
                .iter()
                .any(|v| v.is_some())
                || o.fractional_second_digits.is_some();
            let mut need_defaults = true;
            if (o.required == "date" || o.required == "any") && date_set {
                need_defaults = false;
            }
            if (o.required == "time" || o.required == "any") && time_set {
                need_defaults = false;
            }
            if need_defaults && (o.defaults == "date" || o.defaults == "all") {
                skeleton.push_str("yMd");
            }
            if need_defaults && (o.defaults == "time" || o.defaults == "all") {
                skeleton.push_str(match hc {
                    "h12" => "hms",
                    "h11" => "Kms",
                    "h24" => "kms",
                    _ => "Hms",
                });
            }
            if has_hour {
                dtf_hour_cycle = Some(hc);
            }
            let best = generator.best_pattern(&skeleton, dtpg::MATCH_HOUR_FIELD_LENGTH);
            pattern = replace_hour_cycle(&best, dtf_hour_cycle);
        }

        // The resolved locale: the found locale with the extension keywords
        // that survived, minus -hc- when hour12/hourCycle disagree with it.
        if (o.hour12.is_some() || o.hour_cycle.is_some())
            && locale_keywords
                .get("hc")
                .is_some_and(|v| Some(v.as_str()) != dtf_hour_cycle)
        {
            locale_keywords.remove("hc");
        }
        let locale_str = locale::with_keywords(&r.data_locale, &locale_keywords);
        let target_region = if info.region.is_empty() {
            info.likely_region.clone()
        } else {
            info.region.clone()
        };
        let format = DateFormat::new(
            &pattern,
            &info.base_name,
            &calendar,
            digits.clone(),
            zone.clone(),
            &target_region,
        );
        Ok(DateTimeFormat {
            locale: locale_str,
            calendar: datefmt::bcp47_calendar_name(&calendar).to_string(),
            numbering_system: ns_name,
            time_zone: zone.id(),
            hour_cycle: dtf_hour_cycle,
            date_style: o.date_style.clone(),
            time_style: o.time_style.clone(),
            pattern,
            info,
            format,
            zone,
            digits,
            generator,
            target_region,
        })
    }

    /// The region time zone names are chosen for.
    pub fn format_region(&self) -> String {
        self.target_region.clone()
    }

    /// The generator's best pattern for a skeleton, with this format's hour cycle.
    /// The generator's best pattern with its default options (hour width
    /// from the locale's data), as DateIntervalFormat asks for it.
    pub fn plain_generator_pattern(&self, skeleton: &str) -> String {
        replace_hour_cycle(&self.generator.best_pattern(skeleton, 0), self.hour_cycle)
    }

    /// A date pattern and a time (interval) pattern joined as ICU's
    /// DateIntervalFormat joins them (the calendar's DateTimePatterns glue).
    pub fn glue(&self, date: &str, time: &str, _date_skeleton: &str) -> String {
        let calendar = dtpg::calendar_for_patterns(&self.info);
        let glue = data::lookup(
            "",
            &self.info.base_name,
            &format!("calendar/{calendar}/DateTimePatterns"),
        )
        .or_else(|| data::lookup("", &self.info.base_name, "calendar/gregorian/DateTimePatterns"))
        .and_then(|p| dtp_entry(p, 8))
        .unwrap_or_else(|| "{1} {0}".into());
        let t: Vec<u16> = time.encode_utf16().collect();
        let d: Vec<u16> = date.encode_utf16().collect();
        let g: Vec<u16> = glue.encode_utf16().collect();
        String::from_utf16_lossy(&dtpg::simple_format(&g, &[&t, &d]))
    }

    /// The component fields resolvedOptions reports, read off the pattern as V8 does.
    pub fn components(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if self.date_style.is_some() || self.time_style.is_some() {
            return out;
        }
        for item in PATTERN_ITEMS {
            if item.property == "timeZoneName" {
                let fsd = self.pattern.chars().filter(|&c| c == 'S').count().min(3);
                if fsd > 0 {
                    out.push(("fractionalSecondDigits", fsd.to_string()));
                }
            }
            for (pat, value) in item.pairs {
                if self.pattern.contains(pat) {
                    out.push((item.property, (*value).to_string()));
                    break;
                }
            }
        }
        out
    }
}
