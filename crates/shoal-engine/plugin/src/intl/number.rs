//! `Intl.NumberFormat` formatting as ICU's number formatter does it for V8
//! (icu4c `number_*.cpp`): ECMA-402 rounding on exact decimals, CLDR
//! patterns, symbols, grouping, currency and unit names, compact and
//! scientific notation, over Node's CLDR data. Option processing (which
//! values are allowed, defaults, errors) is done by the JavaScript side.

use super::data::{self, Res};
use super::plural;

/// An exact decimal: `0.d1d2… × 10^exp`; no leading or trailing zero digits;
/// zero has no digits.
#[derive(Clone, Debug, PartialEq)]
pub struct Dec {
    pub neg: bool,
    pub digits: Vec<u8>,
    pub exp: i32,
}

impl Dec {
    pub fn zero(neg: bool) -> Dec {
        Dec {
            neg,
            digits: Vec::new(),
            exp: 0,
        }
    }

    /// Parses a decimal literal ("-12.5", "1e21", "0.000001").
    pub fn parse(s: &str) -> Option<Dec> {
        let s = s.trim();
        let (neg, rest) = match s.as_bytes().first()? {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        let (mantissa, e) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
            None => (rest, 0),
        };
        let (int, frac) = match mantissa.find('.') {
            Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
            None => (mantissa, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let all: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
        let lead = all.iter().take_while(|&&d| d == 0).count();
        let mut digits = all[lead..].to_vec();
        while digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.is_empty() {
            return Some(Dec::zero(neg));
        }
        let exp = i64::try_from(int.len()).ok()? - lead as i64 + e;
        let exp = i32::try_from(exp.clamp(-100_000, 100_000)).ok()?;
        Some(Dec { neg, digits, exp })
    }

    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// The power of ten of the leading digit (0 for zero).
    pub fn magnitude(&self) -> i32 {
        if self.is_zero() { 0 } else { self.exp - 1 }
    }

    pub fn shift(&mut self, n: i32) {
        if !self.is_zero() {
            self.exp += n;
        }
    }

    fn normalize(&mut self) {
        let lead = self.digits.iter().take_while(|&&d| d == 0).count();
        if lead > 0 {
            self.digits.drain(..lead);
            self.exp -= lead as i32;
        }
        while self.digits.last() == Some(&0) {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.exp = 0;
        }
    }

    /// Rounds to a multiple of `increment × 10^pos` with an ECMA-402 rounding mode.
    pub fn round(&mut self, pos: i32, increment: u32, mode: &str) {
        use std::cmp::Ordering;
        if self.is_zero() {
            return;
        }
        let inc = u64::from(increment.max(1));
        let keep = self.exp - pos;
        if inc == 1 && keep >= self.digits.len() as i32 {
            return;
        }
        // value / 10^pos = units + f, units an integer, 0 <= f < 1.
        let keep_n = keep.max(0) as usize;
        let mut units: Vec<u8> = self.digits.iter().take(keep_n).copied().collect();
        units.resize(keep_n, 0);
        let rest: Vec<u8> = if keep < 0 {
            let mut r = vec![0u8; (-keep) as usize];
            r.extend_from_slice(&self.digits);
            r
        } else {
            self.digits.iter().skip(keep_n).copied().collect()
        };
        let f_nonzero = rest.iter().any(|&d| d != 0);
        // units mod inc, and the parity of units div inc.
        let (mut q_parity, mut r) = (0u64, 0u64);
        for &d in &units {
            let cur = r * 10 + u64::from(d);
            q_parity = (q_parity * 10 + cur / inc) % 2;
            r = cur % inc;
        }
        if r == 0 && !f_nonzero {
            return;
        }
        // Compare the distance to the lower multiple (r + f) with inc / 2.
        let a = 2 * r;
        let half = if a + 2 <= inc {
            Ordering::Less
        } else if a > inc {
            Ordering::Greater
        } else if a == inc {
            if f_nonzero { Ordering::Greater } else { Ordering::Equal }
        } else {
            // inc = a + 1: compare f with 1/2.
            match rest.first().copied().unwrap_or(0).cmp(&5) {
                Ordering::Equal if rest[1..].iter().any(|&d| d != 0) => Ordering::Greater,
                other => other,
            }
        };
        let away = match mode {
            "ceil" => !self.neg,
            "floor" => self.neg,
            "expand" => true,
            "trunc" => false,
            "halfCeil" => half == Ordering::Greater || (half == Ordering::Equal && !self.neg),
            "halfFloor" => half == Ordering::Greater || (half == Ordering::Equal && self.neg),
            "halfTrunc" => half == Ordering::Greater,
            "halfEven" => half == Ordering::Greater || (half == Ordering::Equal && q_parity == 1),
            _ => half != Ordering::Less,
        };
        let mut value = units;
        sub_small(&mut value, r);
        if away {
            add_small(&mut value, inc);
        }
        self.exp = pos + value.len() as i32;
        self.digits = value;
        self.normalize();
    }

    /// Integer and fraction digit strings (ASCII).
    pub fn split(&self) -> (String, String) {
        if self.is_zero() {
            return ("0".into(), String::new());
        }
        let ds: String = self.digits.iter().map(|d| char::from(b'0' + d)).collect();
        if self.exp <= 0 {
            return ("0".into(), format!("{}{}", "0".repeat((-self.exp) as usize), ds));
        }
        let e = self.exp as usize;
        if e >= ds.len() {
            return (format!("{}{}", ds, "0".repeat(e - ds.len())), String::new());
        }
        (ds[..e].to_string(), ds[e..].to_string())
    }
}

fn sub_small(v: &mut [u8], n: u64) {
    let mut borrow = n;
    for d in v.iter_mut().rev() {
        if borrow == 0 {
            break;
        }
        let cur = i64::from(*d) - (borrow % 10) as i64;
        borrow /= 10;
        if cur < 0 {
            *d = (cur + 10) as u8;
            borrow += 1;
        } else {
            *d = cur as u8;
        }
    }
}

fn add_small(v: &mut Vec<u8>, n: u64) {
    let mut carry = n;
    for d in v.iter_mut().rev() {
        if carry == 0 {
            break;
        }
        let cur = u64::from(*d) + carry % 10;
        carry /= 10;
        *d = (cur % 10) as u8;
        carry += cur / 10;
    }
    while carry > 0 {
        v.insert(0, (carry % 10) as u8);
        carry /= 10;
    }
}

/// Digit options (resolved by the JavaScript side per ECMA-402).
#[derive(Clone, Debug, Default)]
pub struct Rounding {
    pub min_int: u32,
    pub min_frac: Option<u32>,
    pub max_frac: Option<u32>,
    pub min_sig: Option<u32>,
    pub max_sig: Option<u32>,
    /// "auto", "morePrecision", "lessPrecision".
    pub priority: String,
    pub increment: u32,
    pub mode: String,
    pub strip_if_integer: bool,
}

/// The rounded decimal with the trailing zeros ECMA-402 keeps.
pub struct Rounded {
    pub dec: Dec,
    /// Minimum fraction digits to show.
    pub min_frac: u32,
}

fn to_raw_precision(x: &Dec, min_p: u32, max_p: u32, mode: &str) -> (Dec, i32, u32) {
    let mut d = x.clone();
    if d.is_zero() {
        return (d, 1 - max_p as i32, min_p.saturating_sub(1));
    }
    let e = d.magnitude();
    d.round(e - max_p as i32 + 1, 1, mode);
    let e2 = if d.is_zero() { e } else { d.magnitude() };
    let magnitude = e2 - max_p as i32 + 1;
    // Fraction digits needed to show min_p significant digits.
    let min_frac = (min_p as i32 - e2 - 1).max(0) as u32;
    (d, magnitude, min_frac)
}

fn to_raw_fixed(x: &Dec, min_f: u32, max_f: u32, increment: u32, mode: &str) -> (Dec, i32, u32) {
    let mut d = x.clone();
    d.round(-(max_f as i32), increment, mode);
    (d, -(max_f as i32), min_f)
}

impl Rounding {
    pub fn apply(&self, x: &Dec) -> Rounded {
        let mode = self.mode.as_str();
        let sig = self.min_sig.zip(self.max_sig);
        let frac = self.min_frac.zip(self.max_frac);
        let (dec, min_frac) = match (sig, frac, self.priority.as_str()) {
            (Some((mn, mx)), Some((fmn, fmx)), p) if p == "morePrecision" || p == "lessPrecision" => {
                let s = to_raw_precision(x, mn, mx, mode);
                let f = to_raw_fixed(x, fmn, fmx, self.increment, mode);
                let pick_sig = if p == "morePrecision" { s.1 <= f.1 } else { s.1 > f.1 };
                if pick_sig { (s.0, s.2) } else { (f.0, f.2) }
            }
            (Some((mn, mx)), _, _) => {
                let s = to_raw_precision(x, mn, mx, mode);
                (s.0, s.2)
            }
            (None, Some((fmn, fmx)), _) => {
                let f = to_raw_fixed(x, fmn, fmx, self.increment, mode);
                (f.0, f.2)
            }
            _ => (x.clone(), 0),
        };
        let mut r = Rounded { dec, min_frac };
        if self.strip_if_integer && r.dec.exp >= r.dec.digits.len() as i32 {
            r.min_frac = 0;
        }
        r
    }
}

/// A CLDR number pattern's pieces.
#[derive(Clone, Debug, Default)]
struct Pattern {
    pos_prefix: String,
    pos_suffix: String,
    neg: Option<(String, String)>,
    grouping1: u32,
    grouping2: u32,
}

fn parse_subpattern(p: &str) -> (String, String, u32, u32) {
    // prefix: everything before the first of # 0 , . @ (outside quotes); suffix after the last.
    let chars: Vec<char> = p.chars().collect();
    let is_num = |c: char| matches!(c, '#' | '0'..='9' | ',' | '.' | '@' | 'E');
    let mut in_quote = false;
    let mut start = None;
    let mut end = 0;
    for (i, &c) in chars.iter().enumerate() {
        if c == '\'' {
            in_quote = !in_quote;
            continue;
        }
        if !in_quote && is_num(c) && (c != 'E' || start.is_some()) {
            if start.is_none() {
                start = Some(i);
            }
            end = i + 1;
        }
    }
    let start = start.unwrap_or(chars.len());
    let end = end.max(start);
    let body: String = chars[start..end].iter().collect();
    let int_part = body.split('.').next().unwrap_or("").split('E').next().unwrap_or("");
    let groups: Vec<&str> = int_part.split(',').collect();
    let (g1, g2) = if groups.len() >= 2 {
        let g1 = groups[groups.len() - 1].len() as u32;
        let g2 = if groups.len() >= 3 {
            groups[groups.len() - 2].len() as u32
        } else {
            g1
        };
        (g1, g2)
    } else {
        (0, 0)
    };
    (chars[..start].iter().collect(), chars[end..].iter().collect(), g1, g2)
}

fn parse_pattern(p: &str) -> Pattern {
    let (pos, neg) = match split_unquoted(p, ';') {
        Some((a, b)) => (a, Some(b)),
        None => (p.to_string(), None),
    };
    let (pp, ps, g1, g2) = parse_subpattern(&pos);
    Pattern {
        pos_prefix: pp,
        pos_suffix: ps,
        neg: neg.map(|n| {
            let (np, ns, _, _) = parse_subpattern(&n);
            (np, ns)
        }),
        grouping1: g1,
        grouping2: g2,
    }
}

fn split_unquoted(p: &str, sep: char) -> Option<(String, String)> {
    let mut in_quote = false;
    for (i, c) in p.char_indices() {
        if c == '\'' {
            in_quote = !in_quote;
        } else if c == sep && !in_quote {
            return Some((p[..i].to_string(), p[i + c.len_utf8()..].to_string()));
        }
    }
    None
}

/// Number symbols of a locale and numbering system.
pub struct Symbols {
    pub decimal: String,
    pub group: String,
    pub minus: String,
    pub plus: String,
    pub percent: String,
    pub permille: String,
    pub exponential: String,
    pub infinity: String,
    pub nan: String,
    pub approximately: String,
    pub digits: Vec<char>,
}

fn ns_lookup(locale: &str, ns: &str, path: &str) -> Option<&'static str> {
    data::lookup_str("", locale, &format!("NumberElements/{ns}/{path}"))
        .or_else(|| data::lookup_str("", locale, &format!("NumberElements/latn/{path}")))
}

impl Symbols {
    pub fn load(locale: &str, ns: &str, digits: Vec<char>) -> Symbols {
        let sym = |k: &str, d: &str| ns_lookup(locale, ns, &format!("symbols/{k}")).unwrap_or(d).to_string();
        Symbols {
            decimal: sym("decimal", "."),
            group: sym("group", ","),
            minus: sym("minusSign", "-"),
            plus: sym("plusSign", "+"),
            percent: sym("percentSign", "%"),
            permille: sym("perMille", "‰"),
            exponential: sym("exponential", "E"),
            infinity: sym("infinity", "∞"),
            nan: sym("nan", "NaN"),
            approximately: sym("approximatelySign", "~"),
            digits,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub locale: String,
    pub numbering_system: String,
    pub style: String,
    pub currency: Option<String>,
    pub currency_display: String,
    pub currency_sign: String,
    pub unit: Option<String>,
    pub unit_display: String,
    pub notation: String,
    pub compact_display: String,
    pub sign_display: String,
    /// "always", "auto", "min2" or "false".
    pub use_grouping: String,
    pub rounding: Rounding,
}

pub type Part = (&'static str, String);

pub struct NumberFormat {
    o: Options,
    plural_locale: String,
    sym: Symbols,
    pattern: Pattern,
    /// The decimal pattern (a compact currency pattern brings its own ¤).
    decimal_pattern: Pattern,
    /// The percent unit in short or narrow width: the percent pattern, its sign a "unit" part.
    percent_unit: bool,
    min_grouping: u32,
    currency_symbol: String,
    currency_names: Vec<(String, String)>,
    currency_unit_pattern: Vec<(String, String)>,
    unit_patterns: Vec<(String, String)>,
    compact: Vec<(i32, String, String)>,
    spacing_before: Option<String>,
    spacing_after: Option<String>,
}

const PLURALS: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

fn plural_table(res: Option<Res>) -> Vec<(String, String)> {
    let Some(res) = res else { return Vec::new() };
    PLURALS
        .iter()
        .filter_map(|k| res.get(k).and_then(Res::str).map(|s| ((*k).to_string(), s.to_string())))
        .collect()
}

fn pick<'a>(table: &'a [(String, String)], plural: &str) -> Option<&'a str> {
    table
        .iter()
        .find(|(k, _)| k == plural)
        .or_else(|| table.iter().find(|(k, _)| k == "other"))
        .map(|(_, v)| v.as_str())
}

/// Unit data: the category a unit lives in (as CLDR groups them).
fn unit_entry(locale: &str, width: &str, unit: &str) -> Option<Vec<(String, String)>> {
    let table = match width {
        "long" => "units",
        "narrow" => "unitsNarrow",
        _ => "unitsShort",
    };
    // Find the category holding the unit (any bundle in the chain).
    let mut category = None;
    for (_, b) in data::chain("unit", locale) {
        for t in ["units", "unitsShort", "unitsNarrow"] {
            if let Some(w) = b.get(t) {
                for (cat, units) in w.entries() {
                    if units.get(unit).is_some() {
                        category = Some(cat);
                        break;
                    }
                }
            }
            if category.is_some() {
                break;
            }
        }
        if category.is_some() {
            break;
        }
    }
    let category = category?;
    // Plural forms merge along the fallback chain (child first).
    let mut out: Vec<(String, String)> = Vec::new();
    for key in PLURALS.iter().chain(["per", "dnam"].iter()) {
        if let Some(v) = data::lookup_str("unit", locale, &format!("{table}/{category}/{unit}/{key}")) {
            out.push(((*key).to_string(), v.to_string()));
        }
    }
    (!out.is_empty()).then_some(out)
}

impl NumberFormat {
    pub fn new(o: Options, digits: Vec<char>) -> NumberFormat {
        let loc = o.locale.clone();
        let ns = o.numbering_system.clone();
        let mut sym = Symbols::load(&loc, &ns, digits);
        if o.style == "currency" {
            // Currencies may use their own separators (fr-CH: "1.50 CHF").
            if let Some(d) = ns_lookup(&loc, &ns, "symbols/currencyDecimal") {
                sym.decimal = d.to_string();
            }
            if let Some(g) = ns_lookup(&loc, &ns, "symbols/currencyGroup") {
                sym.group = g.to_string();
            }
        }
        let min_grouping = data::lookup_str("", &loc, "NumberElements/minimumGroupingDigits")
            .and_then(|s| s.parse().ok())
            .unwrap_or(1);
        let mut currency_symbol = String::new();
        let mut currency_names = Vec::new();
        let mut currency_unit_pattern = Vec::new();
        let is_currency = o.style == "currency";
        if let Some(code) = o.currency.as_deref().filter(|_| is_currency) {
            currency_symbol = match o.currency_display.as_str() {
                "code" => code.to_string(),
                "narrowSymbol" => data::lookup_str("curr", &loc, &format!("Currencies%narrow/{code}"))
                    .map(str::to_string)
                    .or_else(|| currency_field(&loc, code, 0))
                    .unwrap_or_else(|| code.to_string()),
                _ => currency_field(&loc, code, 0).unwrap_or_else(|| code.to_string()),
            };
            if o.currency_display == "name" {
                currency_names = plural_table(data::lookup("curr", &loc, &format!("CurrencyPlurals/{code}")));
                if currency_names.is_empty() {
                    let name = currency_field(&loc, code, 1).unwrap_or_else(|| code.to_string());
                    currency_names.push(("other".into(), name));
                }
                currency_unit_pattern = plural_table(data::lookup("curr", &loc, "CurrencyUnitPatterns"));
            }
        }
        // The pattern: currency (standard or accounting, or its
        // alphaNextToNumber variant when the symbol is a letter next to the
        // number), percent, scientific or decimal.
        let is_percent_unit = o.style == "unit" && o.unit.as_deref() == Some("percent");
        let percent_unit = is_percent_unit && o.unit_display != "long" && o.notation != "compact";
        let pattern_key = match o.style.as_str() {
            "currency" if o.currency_display != "name" => {
                if o.currency_sign == "accounting" {
                    "accountingFormat"
                } else {
                    "currencyFormat"
                }
            }
            "percent" if o.notation != "compact" => "percentFormat",
            "unit" if percent_unit => "percentFormat",
            _ => "decimalFormat",
        };
        let pattern_text = ns_lookup(&loc, &ns, &format!("patterns/{pattern_key}"))
            .unwrap_or("#,##0.###")
            .to_string();
        if o.notation == "scientific" || o.notation == "engineering" {
            // ICU keeps the style's affixes; the scientific pattern only sets the exponent.
        }
        let pattern = parse_pattern(&pattern_text);
        let decimal_pattern = parse_pattern(ns_lookup(&loc, &ns, "patterns/decimalFormat").unwrap_or("#,##0.###"));
        let plural_locale = loc.clone();
        let mut unit_patterns = Vec::new();
        if o.style == "unit"
            && !percent_unit
            && let Some(u) = &o.unit
        {
            unit_patterns = unit_long_names(&loc, u, &o.unit_display);
        }
        // Compact percent is the percent unit (V8 gives ICU the percent unit).
        if o.style == "percent" && o.notation == "compact" {
            unit_patterns = unit_long_names(&loc, "percent", "short");
        }
        // Compact patterns merge along the fallback chain, child first
        // (en_IN's lakh and crore over en's thousands).
        let mut compact: Vec<(i32, String, String)> = Vec::new();
        if o.notation == "compact" {
            let table = if o.compact_display == "long" {
                "patternsLong"
            } else {
                "patternsShort"
            };
            let style = if is_currency && o.currency_display != "name" {
                "currencyFormat"
            } else {
                "decimalFormat"
            };
            let mut paths = vec![format!("NumberElements/{ns}/{table}/{style}")];
            if ns != "latn" {
                paths.push(format!("NumberElements/latn/{table}/{style}"));
            }
            if table == "patternsLong" {
                paths.push(format!("NumberElements/{ns}/patternsShort/{style}"));
                if ns != "latn" {
                    paths.push(format!("NumberElements/latn/patternsShort/{style}"));
                }
            }
            for path in paths {
                let mut tables = Vec::new();
                data::each_table_with_fallback("", &loc, &path, &mut |t| tables.push(t));
                for t in tables {
                    for (mag, forms) in t.entries() {
                        let magnitude = mag.len() as i32 - 1;
                        for (plural, p) in forms.entries() {
                            if let Some(p) = p.str()
                                && !compact.iter().any(|(m, k, _)| *m == magnitude && k == plural)
                            {
                                compact.push((magnitude, plural.to_string(), p.to_string()));
                            }
                        }
                    }
                }
                if !compact.is_empty() {
                    break;
                }
            }
        }
        let spacing = |side: &str| -> Option<String> {
            data::lookup_str("curr", &loc, &format!("currencySpacing/{side}/insertBetween")).map(str::to_string)
        };
        NumberFormat {
            spacing_before: spacing("beforeCurrency"),
            spacing_after: spacing("afterCurrency"),
            o,
            plural_locale,
            sym,
            pattern,
            decimal_pattern,
            percent_unit,
            min_grouping,
            currency_symbol,
            currency_names,
            currency_unit_pattern,
            unit_patterns,
            compact,
        }
    }

    fn localize(&self, ascii: &str) -> String {
        ascii
            .chars()
            .map(|c| c.to_digit(10).map(|d| self.sym.digits[d as usize]).unwrap_or(c))
            .collect()
    }

    /// Formats `value` (a decimal literal, "NaN", "Infinity", "-Infinity").
    pub fn format_to_parts(&self, value: &str) -> Vec<Part> {
        self.format(value, false).parts()
    }

    /// The value rounded as it is shown, as a plain decimal ("1.50"), for
    /// plural selection.
    pub fn rounded_plain(&self, value: &str) -> String {
        match Dec::parse(value) {
            Some(x) => {
                let r = self.o.rounding.apply(&x);
                plain_of(&r.dec, r.min_frac)
            }
            None => "0".to_string(),
        }
    }

    /// Formats `value` in layers (ICU's modifiers: the outer unit or
    /// currency name, then the pattern's affixes around the number), which
    /// a range collapses separately. `approximately` puts the
    /// approximately sign where the pattern's sign goes.
    fn format(&self, value: &str, approximately: bool) -> Formatted {
        let special = match value {
            "NaN" => Some(("nan", false)),
            "Infinity" => Some(("infinity", false)),
            "-Infinity" => Some(("infinity", true)),
            _ => None,
        };
        let (mut x, kind) = match special {
            Some((k, neg)) => (Dec::zero(neg), Some(k)),
            None => (Dec::parse(value).unwrap_or_else(|| Dec::zero(false)), None),
        };
        if self.o.style == "percent" {
            x.shift(2);
        }
        // Notation: compact scale or scientific exponent, then rounding.
        let mut exponent: Option<i32> = None;
        let mut compact_pattern: Option<String> = None;
        let mut compact_exp = 0i32;
        let rounded = if kind.is_some() {
            Rounded {
                dec: x.clone(),
                min_frac: 0,
            }
        } else if self.o.notation == "compact" && !self.compact.is_empty() {
            self.apply_compact(&x, &mut compact_pattern, &mut compact_exp)
        } else if self.o.notation == "scientific" || self.o.notation == "engineering" {
            let (r, e) = self.apply_scientific(&x);
            exponent = Some(e);
            r
        } else {
            self.o.rounding.apply(&x)
        };
        let neg = rounded.dec.neg || (kind.is_some() && x.neg);
        let is_zero = kind.is_none() && rounded.dec.is_zero();
        // The number's parts.
        let mut num: Vec<Part> = Vec::new();
        let plain;
        match kind {
            Some("nan") => {
                num.push(("nan", self.sym.nan.clone()));
                plain = "0".to_string();
            }
            Some(_) => {
                num.push(("infinity", self.sym.infinity.clone()));
                plain = "0".to_string();
            }
            _ => {
                let (mut int, mut frac) = rounded.dec.split();
                if (frac.len() as u32) < rounded.min_frac {
                    frac.push_str(&"0".repeat(rounded.min_frac as usize - frac.len()));
                }
                if (int.len() as u32) < self.o.rounding.min_int {
                    int = format!(
                        "{}{}",
                        "0".repeat((self.o.rounding.min_int - int.len() as u32) as usize),
                        int
                    );
                }
                plain = if frac.is_empty() {
                    int.clone()
                } else {
                    format!("{int}.{frac}")
                };
                self.group(&int, &mut num);
                if !frac.is_empty() {
                    num.push(("decimal", self.sym.decimal.clone()));
                    num.push(("fraction", self.localize(&frac)));
                }
                if let Some(e) = exponent {
                    num.push(("exponentSeparator", self.sym.exponential.clone()));
                    if e < 0 {
                        Self::push_symbol(&mut num, "exponentMinusSign", &self.sym.minus);
                    }
                    num.push(("exponentInteger", self.localize(&e.abs().to_string())));
                }
            }
        }
        // The plural form of names: scientific numbers use the whole value
        // with its exponent; compact ones the value before compacting.
        let plural = if kind.is_some() {
            "other"
        } else if let Some(e) = exponent {
            let mut whole = rounded.dec.clone();
            whole.shift(e);
            plural::select_with_exponent(&self.plural_locale, &plain_of(&whole, 0), &plain, e)
        } else if compact_exp != 0 {
            let r = self.o.rounding.apply(&x);
            plural::select(&self.plural_locale, false, &plain_of(&r.dec, r.min_frac), 0)
        } else {
            plural::select(&self.plural_locale, false, &plain, 0)
        };
        // Sign.
        let sign: Option<bool> = match self.o.sign_display.as_str() {
            "never" => None,
            "always" => Some(!neg),
            "exceptZero" => {
                if is_zero || kind == Some("nan") {
                    None
                } else {
                    Some(!neg)
                }
            }
            "negative" => {
                if neg && !is_zero {
                    Some(false)
                } else {
                    None
                }
            }
            _ => {
                if neg {
                    Some(false)
                } else {
                    None
                }
            }
        };
        let identity = match kind {
            Some(k) => format!("{}{k}", if neg { "-" } else { "" }),
            // (Negative zero differs from zero where the sign shows.)
            None => {
                let shown_neg = neg && (!is_zero || sign == Some(false));
                format!(
                    "{}{plain}e{}",
                    if shown_neg { "-" } else { "" },
                    exponent.unwrap_or(compact_exp)
                )
            }
        };
        let (inner, prefix_spacing, middle_key) = self.affix(num, sign, approximately, compact_pattern.as_deref());
        let inner = Self::merge_literals(inner);
        let (outer_before, outer_after, shows_number) = self.outer(plural);
        Formatted {
            inner,
            outer_before,
            outer_after,
            shows_number,
            plural,
            identity,
            prefix_spacing,
            middle_key,
        }
    }

    /// The unit or currency name around the number (ICU's outer modifier),
    /// split at the number, for a plural form.
    /// The flag is false when the pattern shows no number (ar's "قدم" for one foot).
    fn outer(&self, plural: &str) -> (Vec<Part>, Vec<Part>, bool) {
        if self.o.style == "currency" && self.o.currency_display == "name" {
            let name = pick(&self.currency_names, plural).unwrap_or_default().to_string();
            let pattern = pick(&self.currency_unit_pattern, plural).unwrap_or("{0} {1}");
            return wrap(pattern, &[("currency", name)]);
        }
        match pick(&self.unit_patterns, plural) {
            Some(p) => wrap(p, &[]),
            None => (Vec::new(), Vec::new(), true),
        }
    }

    /// `formatRangeToParts`: `(type, value, source)` as ICU's
    /// NumberRangeFormatter gives them (collapse "auto", identity fallback
    /// "approximately").
    pub fn format_range_to_parts(&self, start: &str, end: &str) -> Vec<(&'static str, String, &'static str)> {
        let first = self.format(start, false);
        let second = self.format(end, false);
        if first.identity == second.identity {
            return self
                .format(start, true)
                .parts()
                .into_iter()
                .map(|(t, v)| (t, v, "shared"))
                .collect();
        }
        let (pre1, core1, post1) = split_core(&first.inner);
        let (pre2, core2, post2) = split_core(&second.inner);
        let text = |parts: &[Part]| parts.iter().map(|p| p.1.as_str()).collect::<String>();
        let middle1 = format!("{}{}", text(pre1), text(post1));
        // One formatter's outer modifiers are always equivalent (the range
        // takes its plural form); the affixes collapse when the same pattern
        // and sign made them and they are longer than one code point
        // (currency spacing aside).
        let collapse_middle =
            first.middle_key == second.middle_key && middle1.chars().count() > 1 + first.prefix_spacing;
        let repeat_inner = core1.iter().any(|p| p.0 == "exponentSeparator");
        let repeat_middle = !collapse_middle && !middle1.is_empty();
        let range = ns_lookup(&self.o.locale, &self.o.numbering_system, "miscPatterns/range").unwrap_or("{0}–{1}");
        let (lead, rest) = range.split_once("{0}").unwrap_or(("", range));
        let (mut between, trail) = rest.split_once("{1}").unwrap_or((rest, ""));
        let spaced;
        if repeat_inner || repeat_middle {
            let ws = |c: Option<char>| c.is_some_and(|c| c.is_whitespace() || c == '\u{a0}' || c == '\u{202f}');
            let before = if ws(between.chars().next()) { "" } else { " " };
            let after = if ws(between.chars().last()) { "" } else { " " };
            spaced = format!("{before}{between}{after}");
            between = &spaced;
        }
        let plural = plural::resolve_range(&self.plural_locale, first.plural, second.plural);
        let (outer_before, outer_after, _) = self.outer(plural);
        // The text in order, with where each number's own span lies (UTF-16).
        let mut out: Vec<Part> = Vec::new();
        let mut at = 0usize;
        let mut spans = [(0usize, 0usize); 2];
        let mut push = |parts: &[Part], out: &mut Vec<Part>| {
            for p in parts {
                at += p.1.encode_utf16().count();
                out.push((p.0, p.1.clone()));
            }
            at
        };
        push(&outer_before, &mut out);
        if collapse_middle {
            push(pre1, &mut out);
        }
        push(&[("literal", lead.to_string())], &mut out);
        for (i, (pre, core, post)) in [(pre1, core1, post1), (pre2, core2, post2)].into_iter().enumerate() {
            if i == 1 {
                push(&[("literal", between.to_string())], &mut out);
            }
            let begin = push(&[], &mut out);
            if !collapse_middle {
                push(pre, &mut out);
            }
            push(core, &mut out);
            if !collapse_middle {
                push(post, &mut out);
            }
            spans[i] = (begin, push(&[], &mut out));
        }
        push(&[("literal", trail.to_string())], &mut out);
        if collapse_middle {
            push(post1, &mut out);
        }
        push(&outer_after, &mut out);
        // ICU places the spans before it inserts a collapsed currency
        // prefix's spacing, so they sit that many units early (V8 reports
        // what ICU gives).
        if collapse_middle {
            for span in &mut spans {
                span.0 -= first.prefix_spacing.min(span.0);
                span.1 -= first.prefix_spacing.min(span.1);
            }
        }
        // V8 joins adjacent literal text, then names a part's source by the
        // span that holds it whole.
        let out = Self::merge_literals(out.into_iter().filter(|p| !p.1.is_empty()).collect());
        let mut at = 0usize;
        out.into_iter()
            .map(|(t, v)| {
                let begin = at;
                at += v.encode_utf16().count();
                let within = |(s, l): (usize, usize)| s <= begin && at <= l;
                let source = if within(spans[0]) {
                    "startRange"
                } else if within(spans[1]) {
                    "endRange"
                } else {
                    "shared"
                };
                (t, v, source)
            })
            .collect()
    }

    /// Merges adjacent literal parts (ICU reports one span).
    fn merge_literals(parts: Vec<Part>) -> Vec<Part> {
        let mut out: Vec<Part> = Vec::with_capacity(parts.len());
        for p in parts {
            if p.0 == "literal"
                && let Some(last) = out.last_mut()
                && last.0 == "literal"
            {
                last.1.push_str(&p.1);
                continue;
            }
            out.push(p);
        }
        out
    }

    fn group(&self, int: &str, out: &mut Vec<Part>) {
        let g1 = self.pattern.grouping1;
        let g2 = if self.pattern.grouping2 == 0 {
            g1
        } else {
            self.pattern.grouping2
        };
        let min_grouping = match self.o.use_grouping.as_str() {
            "false" => u32::MAX,
            "min2" => 2,
            "always" => 1,
            _ => self.min_grouping.max(if self.o.notation == "compact" { 2 } else { 1 }),
        };
        let len = int.len() as u32;
        let groups = g1 > 0 && min_grouping != u32::MAX && len > g1 && len - g1 >= min_grouping;
        if !groups {
            out.push(("integer", self.localize(int)));
            return;
        }
        // Split from the right: g1, then g2s.
        let mut cuts = vec![len - g1];
        let mut at = len - g1;
        while at > g2 {
            at -= g2;
            cuts.push(at);
        }
        cuts.reverse();
        let mut prev = 0usize;
        for c in cuts {
            out.push(("integer", self.localize(&int[prev..c as usize])));
            out.push(("group", self.sym.group.clone()));
            prev = c as usize;
        }
        out.push(("integer", self.localize(&int[prev..])));
    }

    fn apply_compact(&self, x: &Dec, pattern: &mut Option<String>, compact_exp: &mut i32) -> Rounded {
        let largest = self.compact.iter().map(|(m, _, _)| *m).max().unwrap_or(0);
        let zeros = |p: &str| p.chars().filter(|&c| c == '0').count() as i32;
        // A magnitude's multiplier comes from its first pattern with digits
        // (fr's explicit "1": "mille" shows no number).
        let multiplier = |magnitude: i32| -> i32 {
            if magnitude < 0 {
                return 0;
            }
            let m = magnitude.min(largest);
            self.compact
                .iter()
                .find(|(mm, k, p)| *mm == m && k != "0" && k != "1" && zeros(p) > 0)
                .map(|(_, _, p)| if p == "0" { 0 } else { zeros(p) - m - 1 })
                .unwrap_or(0)
        };
        let mut r;
        let mut mult = 0;
        if x.is_zero() {
            r = self.o.rounding.apply(x);
        } else {
            let magnitude = x.magnitude();
            mult = multiplier(magnitude);
            let mut scaled = x.clone();
            scaled.shift(mult);
            r = self.o.rounding.apply(&scaled);
            if !r.dec.is_zero() && r.dec.magnitude() != magnitude + mult {
                let m2 = multiplier(magnitude + 1);
                if m2 != mult {
                    let mut scaled = x.clone();
                    scaled.shift(m2);
                    r = self.o.rounding.apply(&scaled);
                    mult = m2;
                }
            }
        }
        let magnitude = if r.dec.is_zero() { 0 } else { r.dec.magnitude() - mult };
        *compact_exp = -mult;
        if magnitude < 0 || self.compact.is_empty() {
            return r;
        }
        let m = magnitude.min(largest);
        let (int, frac) = r.dec.split();
        let integer_valued = frac.is_empty();
        let explicit = if integer_valued && (int == "0" || int == "1") {
            Some(int.as_str())
        } else {
            None
        };
        let mut found = explicit.and_then(|k| self.compact.iter().find(|(mm, kk, _)| *mm == m && kk == k));
        if found.is_none() {
            let mut frac = frac.clone();
            if (frac.len() as u32) < r.min_frac {
                frac.push_str(&"0".repeat(r.min_frac as usize - frac.len()));
            }
            let plain = if frac.is_empty() {
                int.clone()
            } else {
                format!("{int}.{frac}")
            };
            // The compact pattern's plural is the scaled number's.
            let plural = plural::select(&self.plural_locale, false, &plain, 0);
            found = self
                .compact
                .iter()
                .find(|(mm, k, _)| *mm == m && k == plural)
                .or_else(|| self.compact.iter().find(|(mm, k, _)| *mm == m && k == "other"));
        }
        if let Some((_, _, p)) = found
            && p != "0"
        {
            *pattern = Some(p.clone());
        }
        r
    }

    fn apply_scientific(&self, x: &Dec) -> (Rounded, i32) {
        let interval = if self.o.notation == "engineering" { 3 } else { 1 };
        let multiplier = |magnitude: i32| -> i32 {
            let digits_shown = if interval <= 1 {
                1
            } else {
                magnitude.rem_euclid(interval) + 1
            };
            digits_shown - magnitude - 1
        };
        if x.is_zero() {
            return (self.o.rounding.apply(x), 0);
        }
        let magnitude = x.magnitude();
        let mut mult = multiplier(magnitude);
        let mut scaled = x.clone();
        scaled.shift(mult);
        let mut r = self.o.rounding.apply(&scaled);
        if !r.dec.is_zero() && r.dec.magnitude() != magnitude + mult {
            let m2 = multiplier(magnitude + 1);
            if m2 != mult {
                let mut scaled = x.clone();
                scaled.shift(m2);
                r = self.o.rounding.apply(&scaled);
                mult = m2;
            }
        }
        (r, -mult)
    }

    /// Wraps the number in the pattern's affixes (with sign, currency,
    /// percent, unit and compact text).
    fn affix(
        &self,
        num: Vec<Part>,
        sign: Option<bool>,
        approximately: bool,
        compact: Option<&str>,
    ) -> (Vec<Part>, usize, String) {
        let mut prefix_spacing = 0;
        // The affixes of the positive or negative subpattern; a compact
        // currency pattern carries the currency itself.
        let pattern = if compact.is_some_and(|c| c.contains('¤')) {
            &self.decimal_pattern
        } else {
            &self.pattern
        };
        // The approximately sign goes before the sign, or where a plus
        // sign would go (ICU's pattern sign handling).
        let had_plus = sign == Some(true);
        let sign = if approximately && sign.is_none() {
            Some(true)
        } else {
            sign
        };
        let (prefix, suffix) = match sign {
            Some(false) => match &pattern.neg {
                Some((p, s)) => (p.clone(), s.clone()),
                None => (format!("-{}", pattern.pos_prefix), pattern.pos_suffix.clone()),
            },
            Some(true) => match &pattern.neg {
                Some((p, s)) if p.contains('-') || s.contains('-') => (p.replace('-', "+"), s.replace('-', "+")),
                _ => (format!("+{}", pattern.pos_prefix), pattern.pos_suffix.clone()),
            },
            None => (pattern.pos_prefix.clone(), pattern.pos_suffix.clone()),
        };
        let (prefix, suffix) = if !approximately {
            (prefix, suffix)
        } else if had_plus {
            (prefix.replace('+', "~+"), suffix.replace('+', "~+"))
        } else if sign == Some(true) {
            (prefix.replace('+', "~"), suffix.replace('+', "~"))
        } else {
            (prefix.replace('-', "~-"), suffix.replace('-', "~-"))
        };
        let mut out: Vec<Part> = Vec::new();
        // ICU compares compact affixes by their text (not the pattern's digits).
        let compact_affixes: String = compact.unwrap_or("").chars().filter(|&c| c != '0').collect();
        let middle_key = format!("{prefix}\u{0}{suffix}\u{0}{compact_affixes}");
        self.expand_affix(&prefix, &mut out);
        // Compact patterns wrap the number: "0K", "¤0K", "0 thousand".
        let mut body = num;
        if let Some(cp) = compact {
            body = self.expand_compact(cp, body);
        }
        out.extend(body);
        let mut suffix_parts = Vec::new();
        self.expand_affix(&suffix, &mut suffix_parts);
        out.extend(suffix_parts);
        // Currency spacing: a letter-ending symbol next to a digit gets a space.
        if self.o.style == "currency" && self.o.currency_display != "name" {
            prefix_spacing = self.currency_spacing(&mut out);
        }
        if self.percent_unit {
            for part in &mut out {
                if part.0 == "percentSign" {
                    part.0 = "unit";
                }
            }
        }
        (out, prefix_spacing, middle_key)
    }

    fn expand_compact(&self, pattern: &str, num: Vec<Part>) -> Vec<Part> {
        let mut out = Vec::new();
        let chars: Vec<char> = pattern.chars().collect();
        let has_number = chars.contains(&'0');
        // A pattern without digits ("mille") replaces the number.
        let num = if has_number { num } else { Vec::new() };
        let first_zero = chars.iter().position(|&c| c == '0').unwrap_or(chars.len());
        let last_zero = chars
            .iter()
            .rposition(|&c| c == '0')
            .unwrap_or(chars.len().saturating_sub(1));
        let push_text = |s: String, out: &mut Vec<Part>| {
            if s.is_empty() {
                return;
            }
            // Spaces and bidi marks next to the number are literals; the rest is "compact".
            let sep =
                |c: char| c.is_whitespace() || matches!(c, '\u{a0}' | '\u{202f}' | '\u{61c}' | '\u{200e}' | '\u{200f}');
            let trimmed = s.trim_matches(sep);
            if trimmed.is_empty() {
                out.push(("literal", s));
                return;
            }
            let lead_len = s.len() - s.trim_start_matches(sep).len();
            let trail_len = s.len() - s.trim_end_matches(sep).len();
            if lead_len > 0 {
                out.push(("literal", s[..lead_len].to_string()));
            }
            out.push(("compact", trimmed.to_string()));
            if trail_len > 0 {
                out.push(("literal", s[s.len() - trail_len..].to_string()));
            }
        };
        let before: String = chars[..first_zero].iter().filter(|&&c| c != '\'').collect();
        let after: String = if has_number {
            chars[last_zero + 1..].iter().filter(|&&c| c != '\'').collect()
        } else {
            String::new()
        };
        let before = before.replace('¤', "\u{0}");
        let after = after.replace('¤', "\u{0}");
        for (text, at_end) in [(before, false), (after, true)] {
            if at_end {
                out.extend(num.iter().cloned());
            }
            let mut chunk = String::new();
            for c in text.chars() {
                if c == '\u{0}' {
                    push_text(std::mem::take(&mut chunk), &mut out);
                    out.push(("currency", self.currency_symbol.clone()));
                } else {
                    chunk.push(c);
                }
            }
            push_text(chunk, &mut out);
        }
        if out.is_empty() {
            return num;
        }
        out
    }

    /// A sign or percent symbol: bidi marks around it are literal parts (ICU
    /// gives the field to the symbol proper).
    fn push_symbol(out: &mut Vec<Part>, ty: &'static str, symbol: &str) {
        let bidi = |c: char| matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}');
        let core = symbol.trim_matches(bidi);
        let lead = symbol.len() - symbol.trim_start_matches(bidi).len();
        let trail = symbol.len() - symbol.trim_end_matches(bidi).len();
        if lead > 0 {
            out.push(("literal", symbol[..lead].to_string()));
        }
        if !core.is_empty() {
            out.push((ty, core.to_string()));
        }
        if trail > 0 && trail < symbol.len() {
            out.push(("literal", symbol[symbol.len() - trail..].to_string()));
        }
    }

    fn expand_affix(&self, affix: &str, out: &mut Vec<Part>) {
        let mut literal = String::new();
        let mut in_quote = false;
        let chars: Vec<char> = affix.chars().collect();
        let mut i = 0;
        let flush = |literal: &mut String, out: &mut Vec<Part>| {
            if !literal.is_empty() {
                out.push(("literal", std::mem::take(literal)));
            }
        };
        while i < chars.len() {
            let c = chars[i];
            if c == '\'' {
                if chars.get(i + 1) == Some(&'\'') {
                    literal.push('\'');
                    i += 2;
                    continue;
                }
                in_quote = !in_quote;
                i += 1;
                continue;
            }
            if in_quote {
                literal.push(c);
                i += 1;
                continue;
            }
            match c {
                '-' => {
                    flush(&mut literal, out);
                    Self::push_symbol(out, "minusSign", &self.sym.minus);
                }
                '+' => {
                    flush(&mut literal, out);
                    Self::push_symbol(out, "plusSign", &self.sym.plus);
                }
                '%' => {
                    flush(&mut literal, out);
                    Self::push_symbol(out, "percentSign", &self.sym.percent);
                }
                '~' => {
                    flush(&mut literal, out);
                    Self::push_symbol(out, "approximatelySign", &self.sym.approximately);
                }
                '‰' => {
                    flush(&mut literal, out);
                    Self::push_symbol(out, "percentSign", &self.sym.permille);
                }
                '¤' => {
                    let mut n = 1;
                    while chars.get(i + n) == Some(&'¤') {
                        n += 1;
                    }
                    flush(&mut literal, out);
                    Self::push_symbol(out, "currency", &self.currency_symbol);
                    i += n;
                    continue;
                }
                _ => literal.push(c),
            }
            i += 1;
        }
        flush(&mut literal, out);
    }

    /// Inserts CLDR's currency spacing; returns the UTF-16 length inserted
    /// between a currency before the number and the number.
    fn currency_spacing(&self, out: &mut Vec<Part>) -> usize {
        let is_digit_part = |t: &str| t == "integer";
        let mut before_number = 0;
        let mut i = 0;
        while i < out.len() {
            if out[i].0 == "currency" {
                // currency then number
                if let (Some(next), Some(ins)) = (out.get(i + 1), &self.spacing_before) {
                    let sym_last = out[i].1.chars().last();
                    if is_digit_part(next.0) && sym_last.map(is_letter).unwrap_or(false) {
                        before_number += ins.encode_utf16().count();
                        out.insert(i + 1, ("literal", ins.clone()));
                    }
                }
                // number then currency
                if i > 0
                    && let (Some(prev), Some(ins)) = (out.get(i - 1), &self.spacing_after)
                {
                    let sym_first = out[i].1.chars().next();
                    if matches!(prev.0, "integer" | "fraction" | "exponentInteger")
                        && sym_first.map(is_letter).unwrap_or(false)
                    {
                        out.insert(i, ("literal", ins.clone()));
                        i += 1;
                    }
                }
            }
            i += 1;
        }
        before_number
    }
}

/// A decimal as plain digits ("1234.50") with at least `min_frac` fraction digits.
fn plain_of(d: &Dec, min_frac: u32) -> String {
    let (int, mut frac) = d.split();
    if (frac.len() as u32) < min_frac {
        frac.push_str(&"0".repeat(min_frac as usize - frac.len()));
    }
    if frac.is_empty() { int } else { format!("{int}.{frac}") }
}

/// A CLDR currency field: 0 the symbol, 1 the display name.
fn currency_field(locale: &str, code: &str, index: usize) -> Option<String> {
    data::lookup("curr", locale, &format!("Currencies/{code}"))
        .and_then(|r| r.index(index))
        .and_then(Res::str)
        .map(str::to_string)
}

/// `[[:^S:]&[:^Z:]]` for the characters CLDR currency symbols use: not a
/// symbol, not a separator.
fn is_letter(c: char) -> bool {
    c.is_alphabetic()
}

/// The parts before and after `{0}` in a unit or currency-name pattern;
/// the text is "unit" (or the given fields for `{1}`), spaces next to the
/// number are literals.
fn wrap(pattern: &str, args: &[(&'static str, String)]) -> (Vec<Part>, Vec<Part>, bool) {
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut seen_number = false;
    let mut rest = pattern;
    while !rest.is_empty() {
        let out = if seen_number { &mut after } else { &mut before };
        let (text, tail) = match rest.find('{') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if !text.is_empty() {
            push_unit_text(text, out, args.is_empty());
        }
        if tail.is_empty() {
            break;
        }
        let close = tail.find('}').unwrap_or(tail.len() - 1);
        match &tail[1..close] {
            "0" => seen_number = true,
            "1" => {
                for (t, v) in args {
                    out.push((t, v.clone()));
                }
            }
            _ => {}
        }
        rest = &tail[close + 1..];
    }
    (before, after, seen_number)
}

/// A formatted number in ICU's layers.
struct Formatted {
    /// The number with the pattern's affixes.
    inner: Vec<Part>,
    outer_before: Vec<Part>,
    outer_after: Vec<Part>,
    shows_number: bool,
    plural: &'static str,
    /// The rounded value shown (with its exponent): equal for two numbers
    /// that format the same.
    identity: String,
    /// Currency spacing between a currency prefix and the number.
    prefix_spacing: usize,
    /// The pattern's affixes as chosen (what ICU compares to collapse them).
    middle_key: String,
}

impl Formatted {
    fn parts(self) -> Vec<Part> {
        let mut out = self.outer_before;
        if self.shows_number {
            out.extend(self.inner);
        }
        out.extend(self.outer_after);
        NumberFormat::merge_literals(out)
    }
}

/// Splits affixed parts into the affixes before, the number proper (with
/// its exponent), and the affixes after.
fn split_core(parts: &[Part]) -> (&[Part], &[Part], &[Part]) {
    let starts = |t: &str| matches!(t, "integer" | "nan" | "infinity");
    let ends = |t: &str| matches!(t, "integer" | "fraction" | "exponentInteger" | "nan" | "infinity");
    let Some(first) = parts.iter().position(|p| starts(p.0)) else {
        return (parts, &[], &[]);
    };
    let last = parts.iter().rposition(|p| ends(p.0)).unwrap_or(first);
    (&parts[..first], &parts[first..=last], &parts[last + 1..])
}

fn push_unit_text(text: &str, out: &mut Vec<Part>, is_unit: bool) {
    let ws = |c: char| c.is_whitespace() || c == '\u{a0}' || c == '\u{202f}';
    let trimmed = text.trim_matches(ws);
    if trimmed.is_empty() || !is_unit {
        out.push(("literal", text.to_string()));
        return;
    }
    let lead = text.len() - text.trim_start_matches(ws).len();
    let trail = text.len() - text.trim_end_matches(ws).len();
    if lead > 0 {
        out.push(("literal", text[..lead].to_string()));
    }
    out.push(("unit", trimmed.to_string()));
    if trail > 0 {
        out.push(("literal", text[text.len() - trail..].to_string()));
    }
}

/// The per-plural patterns of a unit (LongNameHandler::forMeasureUnit).
fn unit_long_names(locale: &str, unit: &str, width: &str) -> Vec<(String, String)> {
    if let Some(e) = unit_entry(locale, width, unit) {
        return e.into_iter().filter(|(k, _)| PLURALS.contains(&k.as_str())).collect();
    }
    let Some((num, den)) = unit.split_once("-per-") else {
        return Vec::new();
    };
    let primary = unit_entry(locale, width, num).unwrap_or_default();
    let secondary = unit_entry(locale, width, den).unwrap_or_default();
    let per_format = match secondary.iter().find(|(k, _)| k == "per") {
        Some((_, p)) => p.clone(),
        None => {
            let table = match width {
                "long" => "units",
                "narrow" => "unitsNarrow",
                _ => "unitsShort",
            };
            let raw = data::lookup_str("unit", locale, &format!("{table}/compound/per")).unwrap_or("{0}/{1}");
            let one = pick(&secondary, "one").unwrap_or("");
            let den_name = one.replace("{0}", "").trim().to_string();
            raw.replace("{1}", &den_name)
        }
    };
    primary
        .into_iter()
        .filter(|(k, _)| PLURALS.contains(&k.as_str()))
        .map(|(k, p)| (k, per_format.replace("{0}", &p)))
        .collect()
}
