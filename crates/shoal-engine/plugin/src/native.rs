//! Native primitives behind Shoal's Node.js modules: hashing, HMAC, PBKDF2,
//! a CSPRNG, zlib, WHATWG URL parsing and read-only files (AES and scrypt
//! are in [`crate::cipher`]). The JavaScript
//! side (`crates/shoal-build/js/node/`) shapes them into Node's APIs; doing
//! the work here keeps it at native speed inside the sandbox.
//!
//! Every function takes and returns plain values (strings, numbers,
//! `Uint8Array`s, `ArrayBuffer`s) and throws a JavaScript `Error` with a
//! message on bad input, never traps.

use javy_plugin_api::javy::quickjs::{
    ArrayBuffer, Ctx, Exception, Function, Object, Result as JsResult, TypedArray, function::Opt,
};

pub(crate) fn throw(ctx: &Ctx<'_>, message: impl AsRef<str>) -> javy_plugin_api::javy::quickjs::Error {
    Exception::throw_message(ctx, message.as_ref())
}

pub(crate) fn bytes<'a>(ctx: &Ctx<'_>, view: &'a TypedArray<'_, u8>, what: &str) -> JsResult<&'a [u8]> {
    view.as_bytes()
        .ok_or_else(|| throw(ctx, format!("{what}: the buffer is detached")))
}

pub(crate) fn buffer<'js>(ctx: &Ctx<'js>, data: Vec<u8>) -> JsResult<ArrayBuffer<'js>> {
    ArrayBuffer::new(ctx.clone(), data)
}

enum Algorithm {
    Md5,
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
}

impl Algorithm {
    fn parse(ctx: &Ctx<'_>, name: &str) -> JsResult<Self> {
        Ok(match name.to_ascii_lowercase().replace('-', "").as_str() {
            "md5" => Self::Md5,
            "sha1" => Self::Sha1,
            "sha224" => Self::Sha224,
            "sha256" => Self::Sha256,
            "sha384" => Self::Sha384,
            "sha512" => Self::Sha512,
            _ => return Err(throw(ctx, format!("Digest method not supported: {name}"))),
        })
    }

    fn digest(&self, data: &[u8]) -> Vec<u8> {
        use sha2::Digest;
        match self {
            Self::Md5 => md5::Md5::digest(data).to_vec(),
            Self::Sha1 => sha1::Sha1::digest(data).to_vec(),
            Self::Sha224 => sha2::Sha224::digest(data).to_vec(),
            Self::Sha256 => sha2::Sha256::digest(data).to_vec(),
            Self::Sha384 => sha2::Sha384::digest(data).to_vec(),
            Self::Sha512 => sha2::Sha512::digest(data).to_vec(),
        }
    }

    fn hmac(&self, key: &[u8], data: &[u8]) -> Vec<u8> {
        use hmac::{Hmac, KeyInit, Mac};
        macro_rules! mac {
            ($d:ty) => {{
                // HMAC accepts keys of any length.
                let mut mac = Hmac::<$d>::new_from_slice(key).expect("any key length");
                mac.update(data);
                mac.finalize().into_bytes().to_vec()
            }};
        }
        match self {
            Self::Md5 => mac!(md5::Md5),
            Self::Sha1 => mac!(sha1::Sha1),
            Self::Sha224 => mac!(sha2::Sha224),
            Self::Sha256 => mac!(sha2::Sha256),
            Self::Sha384 => mac!(sha2::Sha384),
            Self::Sha512 => mac!(sha2::Sha512),
        }
    }

    fn pbkdf2(&self, password: &[u8], salt: &[u8], rounds: u32, out: &mut [u8]) {
        use hmac::Hmac;
        match self {
            Self::Md5 => pbkdf2::pbkdf2::<Hmac<md5::Md5>>(password, salt, rounds, out),
            Self::Sha1 => pbkdf2::pbkdf2::<Hmac<sha1::Sha1>>(password, salt, rounds, out),
            Self::Sha224 => pbkdf2::pbkdf2::<Hmac<sha2::Sha224>>(password, salt, rounds, out),
            Self::Sha256 => pbkdf2::pbkdf2::<Hmac<sha2::Sha256>>(password, salt, rounds, out),
            Self::Sha384 => pbkdf2::pbkdf2::<Hmac<sha2::Sha384>>(password, salt, rounds, out),
            Self::Sha512 => pbkdf2::pbkdf2::<Hmac<sha2::Sha512>>(password, salt, rounds, out),
        }
        .expect("HMAC takes keys of any length");
    }
}

fn digest<'js>(ctx: Ctx<'js>, algorithm: String, data: TypedArray<'js, u8>) -> JsResult<ArrayBuffer<'js>> {
    let algorithm = Algorithm::parse(&ctx, &algorithm)?;
    let out = algorithm.digest(bytes(&ctx, &data, "hash")?);
    buffer(&ctx, out)
}

fn hmac<'js>(
    ctx: Ctx<'js>,
    algorithm: String,
    key: TypedArray<'js, u8>,
    data: TypedArray<'js, u8>,
) -> JsResult<ArrayBuffer<'js>> {
    let algorithm = Algorithm::parse(&ctx, &algorithm)?;
    let out = algorithm.hmac(bytes(&ctx, &key, "hmac key")?, bytes(&ctx, &data, "hmac")?);
    buffer(&ctx, out)
}

fn pbkdf2<'js>(
    ctx: Ctx<'js>,
    algorithm: String,
    password: TypedArray<'js, u8>,
    salt: TypedArray<'js, u8>,
    rounds: f64,
    length: f64,
) -> JsResult<ArrayBuffer<'js>> {
    let algorithm = Algorithm::parse(&ctx, &algorithm)?;
    if !(1.0..=u32::MAX as f64).contains(&rounds) || rounds.fract() != 0.0 {
        return Err(throw(&ctx, "pbkdf2: iterations must be a positive integer"));
    }
    if !(0.0..=(1u64 << 30) as f64).contains(&length) || length.fract() != 0.0 {
        return Err(throw(&ctx, "pbkdf2: keylen must be a non-negative integer"));
    }
    let mut out = vec![0u8; length as usize];
    algorithm.pbkdf2(
        bytes(&ctx, &password, "pbkdf2 password")?,
        bytes(&ctx, &salt, "pbkdf2 salt")?,
        rounds as u32,
        &mut out,
    );
    buffer(&ctx, out)
}

/// Fills a fresh buffer from the host's CSPRNG (WASI `random_get`).
fn random_bytes<'js>(ctx: Ctx<'js>, length: f64) -> JsResult<ArrayBuffer<'js>> {
    if !(0.0..=65536.0 * 1024.0).contains(&length) || length.fract() != 0.0 {
        return Err(throw(&ctx, "randomBytes: size must be an integer from 0 to 67108864"));
    }
    let mut out = vec![0u8; length as usize];
    getrandom::fill(&mut out).map_err(|e| throw(&ctx, format!("no randomness available: {e}")))?;
    buffer(&ctx, out)
}

/// zlib in all of Node's framings: `deflate`/`inflate` (zlib), `deflateRaw`/
/// `inflateRaw`, `gzip`/`gunzip`, and `unzip` (gzip or zlib, by header).
fn zlib<'js>(ctx: Ctx<'js>, operation: String, data: TypedArray<'js, u8>, level: f64) -> JsResult<ArrayBuffer<'js>> {
    use std::io::{Read, Write};
    let input = bytes(&ctx, &data, "zlib")?;
    let level = if (0.0..=9.0).contains(&level) {
        flate2::Compression::new(level as u32)
    } else {
        flate2::Compression::default()
    };
    let mut out = Vec::new();
    let result = match operation.as_str() {
        "deflate" => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), level);
            e.write_all(input).and_then(|_| e.finish()).map(|v| out = v)
        }
        "deflateRaw" => {
            let mut e = flate2::write::DeflateEncoder::new(Vec::new(), level);
            e.write_all(input).and_then(|_| e.finish()).map(|v| out = v)
        }
        "gzip" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), level);
            e.write_all(input).and_then(|_| e.finish()).map(|v| out = v)
        }
        "inflate" => flate2::read::ZlibDecoder::new(input).read_to_end(&mut out).map(|_| ()),
        "inflateRaw" => flate2::read::DeflateDecoder::new(input)
            .read_to_end(&mut out)
            .map(|_| ()),
        "gunzip" => flate2::read::MultiGzDecoder::new(input)
            .read_to_end(&mut out)
            .map(|_| ()),
        "unzip" if input.starts_with(&[0x1f, 0x8b]) => flate2::read::MultiGzDecoder::new(input)
            .read_to_end(&mut out)
            .map(|_| ()),
        "unzip" => flate2::read::ZlibDecoder::new(input).read_to_end(&mut out).map(|_| ()),
        other => return Err(throw(&ctx, format!("zlib: unknown operation {other}"))),
    };
    match result {
        Ok(()) => buffer(&ctx, out),
        // Node's messages for the common cases.
        Err(e) if operation.starts_with("gun") || operation == "unzip" => {
            Err(throw(&ctx, format!("incorrect header check ({e})")))
        }
        Err(e) => Err(throw(&ctx, format!("zlib {operation}: {e}"))),
    }
}

/// Parses a URL the WHATWG way (the `url` crate implements the URL
/// Standard); returns its parts, or throws `Invalid URL`.
fn url_parse<'js>(ctx: Ctx<'js>, input: String, base: Opt<String>) -> JsResult<Object<'js>> {
    let parsed = match base.0 {
        Some(base) => url::Url::parse(&base).and_then(|b| b.join(&input)),
        None => url::Url::parse(&input),
    };
    let url = parsed.map_err(|_| throw(&ctx, format!("Invalid URL: {input}")))?;
    url_parts(ctx, &url)
}

fn url_parts<'js>(ctx: Ctx<'js>, url: &url::Url) -> JsResult<Object<'js>> {
    use url::quirks;
    let parts = Object::new(ctx.clone())?;
    parts.set("href", quirks::href(url))?;
    parts.set("protocol", quirks::protocol(url))?;
    parts.set("username", quirks::username(url))?;
    parts.set("password", quirks::password(url))?;
    parts.set("host", quirks::host(url))?;
    parts.set("hostname", quirks::hostname(url))?;
    parts.set("port", quirks::port(url))?;
    parts.set("pathname", quirks::pathname(url))?;
    parts.set("search", quirks::search(url))?;
    parts.set("hash", quirks::hash(url))?;
    parts.set("origin", quirks::origin(url))?;
    Ok(parts)
}

/// Sets one component of a URL with the URL Standard's setter rules (the
/// `url` crate's `quirks` module implements them) and returns the new parts;
/// like a browser, an invalid value leaves the URL as it was.
fn url_set<'js>(ctx: Ctx<'js>, href: String, component: String, value: String) -> JsResult<Object<'js>> {
    use url::quirks;
    let mut url = url::Url::parse(&href).map_err(|_| throw(&ctx, format!("Invalid URL: {href}")))?;
    match component.as_str() {
        "href" => quirks::set_href(&mut url, &value).map_err(|_| throw(&ctx, format!("Invalid URL: {value}")))?,
        "protocol" => drop(quirks::set_protocol(&mut url, &value)),
        "username" => drop(quirks::set_username(&mut url, &value)),
        "password" => drop(quirks::set_password(&mut url, &value)),
        "host" => drop(quirks::set_host(&mut url, &value)),
        "hostname" => drop(quirks::set_hostname(&mut url, &value)),
        "port" => drop(quirks::set_port(&mut url, &value)),
        "pathname" => quirks::set_pathname(&mut url, &value),
        "search" => quirks::set_search(&mut url, &value),
        "hash" => quirks::set_hash(&mut url, &value),
        other => return Err(throw(&ctx, format!("URL has no settable component {other}"))),
    }
    url_parts(ctx, &url)
}

/// Read-only file access through raw WASI calls: only the folders the host
/// preopened (the Function's secretMounts) are reachable. Not `std::fs`:
/// that links wasi-libc's preopen table, whose constructor scans every file
/// descriptor on each export call (and never ends under javy-codegen's
/// stubbed imports); here the scan happens only when a Function reads a
/// file.
mod wasi_fs {
    use wasi::{Errno, Fd};

    /// The preopened folders: `(fd, guest path)`.
    fn preopens() -> Vec<(Fd, String)> {
        let mut found = Vec::new();
        for fd in 3..1024 {
            // SAFETY: plain WASI calls with buffers of the reported size.
            let Ok(prestat) = (unsafe { wasi::fd_prestat_get(fd) }) else {
                break;
            };
            if prestat.tag != wasi::PREOPENTYPE_DIR.raw() {
                continue;
            }
            // SAFETY: `dir` is the only variant of the union.
            let len = unsafe { prestat.u.dir.pr_name_len };
            let mut name = vec![0u8; len];
            // SAFETY: `name` has the length the host reported.
            if unsafe { wasi::fd_prestat_dir_name(fd, name.as_mut_ptr(), len) }.is_ok() {
                let name = String::from_utf8_lossy(&name).trim_end_matches('\0').to_string();
                found.push((fd, name));
            }
        }
        found
    }

    /// The preopen holding `path` and the path relative to it.
    fn resolve(path: &str) -> Result<(Fd, String), Errno> {
        let mut parts: Vec<&str> = Vec::new();
        for part in path.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop();
                }
                p => parts.push(p),
            }
        }
        let normal = format!("/{}", parts.join("/"));
        preopens()
            .into_iter()
            .filter_map(|(fd, root)| {
                let root = format!("/{}", root.trim_matches('/'));
                let rest = if root == "/" {
                    Some(normal.trim_start_matches('/').to_string())
                } else if normal == root {
                    Some(String::new())
                } else {
                    normal.strip_prefix(&format!("{root}/")).map(str::to_string)
                }?;
                Some((root.len(), fd, rest))
            })
            .max_by_key(|(len, _, _)| *len)
            .map(|(_, fd, rest)| (fd, if rest.is_empty() { ".".into() } else { rest }))
            .ok_or(wasi::ERRNO_NOENT)
    }

    fn open(path: &str, directory: bool) -> Result<Fd, Errno> {
        let (dir, rel) = resolve(path)?;
        let (oflags, rights) = if directory {
            (wasi::OFLAGS_DIRECTORY, wasi::RIGHTS_FD_READDIR)
        } else {
            (0, wasi::RIGHTS_FD_READ | wasi::RIGHTS_FD_SEEK)
        };
        // SAFETY: a plain WASI call.
        unsafe { wasi::path_open(dir, wasi::LOOKUPFLAGS_SYMLINK_FOLLOW, &rel, oflags, rights, 0, 0) }
    }

    pub fn read(path: &str) -> Result<Vec<u8>, Errno> {
        let fd = open(path, false)?;
        let mut out = Vec::new();
        let mut chunk = vec![0u8; 64 * 1024];
        let result = loop {
            let iov = wasi::Iovec {
                buf: chunk.as_mut_ptr(),
                buf_len: chunk.len(),
            };
            // SAFETY: the iovec points at `chunk`, alive for the call.
            match unsafe { wasi::fd_read(fd, &[iov]) } {
                Ok(0) => break Ok(out),
                Ok(n) => out.extend_from_slice(&chunk[..n]),
                Err(e) => break Err(e),
            }
        };
        // SAFETY: `fd` was opened above.
        let _ = unsafe { wasi::fd_close(fd) };
        result
    }

    pub struct Stat {
        pub is_file: bool,
        pub is_dir: bool,
        pub size: u64,
        pub mtime_ns: u64,
    }

    pub fn stat(path: &str) -> Result<Stat, Errno> {
        let (dir, rel) = resolve(path)?;
        // SAFETY: a plain WASI call.
        let s = unsafe { wasi::path_filestat_get(dir, wasi::LOOKUPFLAGS_SYMLINK_FOLLOW, &rel) }?;
        Ok(Stat {
            is_file: s.filetype == wasi::FILETYPE_REGULAR_FILE,
            is_dir: s.filetype == wasi::FILETYPE_DIRECTORY,
            size: s.size,
            mtime_ns: s.mtim,
        })
    }

    pub fn readdir(path: &str) -> Result<Vec<String>, Errno> {
        let fd = open(path, true)?;
        let mut names = Vec::new();
        let mut buf = vec![0u8; 16 * 1024];
        let mut cookie = 0;
        let header = std::mem::size_of::<wasi::Dirent>();
        let result = 'outer: loop {
            // SAFETY: `buf` is alive and of the length given.
            let used = match unsafe { wasi::fd_readdir(fd, buf.as_mut_ptr(), buf.len(), cookie) } {
                Ok(n) => n,
                Err(e) => break Err(e),
            };
            let mut at = 0;
            while at + header <= used {
                // SAFETY: a whole header lies within `used` bytes; read unaligned.
                let dirent: wasi::Dirent = unsafe { std::ptr::read_unaligned(buf[at..].as_ptr().cast()) };
                let name_end = at + header + dirent.d_namlen as usize;
                if name_end > used {
                    break;
                }
                let name = String::from_utf8_lossy(&buf[at + header..name_end]).into_owned();
                if name != "." && name != ".." {
                    names.push(name);
                }
                cookie = dirent.d_next;
                at = name_end;
            }
            if used < buf.len() {
                break 'outer Ok(());
            }
        };
        // SAFETY: `fd` was opened above.
        let _ = unsafe { wasi::fd_close(fd) };
        result.map(|_| {
            names.sort();
            names
        })
    }
}

fn fs_read<'js>(ctx: Ctx<'js>, path: String) -> JsResult<ArrayBuffer<'js>> {
    match wasi_fs::read(&path) {
        Ok(data) => buffer(&ctx, data),
        Err(e) => Err(fs_error(&ctx, "open", &path, e)),
    }
}

/// `[isFile, isDirectory, size, mtimeMs]`, or throws ENOENT & co.
fn fs_stat<'js>(ctx: Ctx<'js>, path: String) -> JsResult<Vec<f64>> {
    match wasi_fs::stat(&path) {
        Ok(s) => Ok(vec![
            f64::from(u8::from(s.is_file)),
            f64::from(u8::from(s.is_dir)),
            s.size as f64,
            (s.mtime_ns / 1_000_000) as f64,
        ]),
        Err(e) => Err(fs_error(&ctx, "stat", &path, e)),
    }
}

fn fs_readdir<'js>(ctx: Ctx<'js>, path: String) -> JsResult<Vec<String>> {
    wasi_fs::readdir(&path).map_err(|e| fs_error(&ctx, "scandir", &path, e))
}

/// An error shaped like Node's: `ENOENT: no such file or directory, open '/x'`
/// with `code`, `syscall` and `path` properties.
fn fs_error(ctx: &Ctx<'_>, syscall: &str, path: &str, e: wasi::Errno) -> javy_plugin_api::javy::quickjs::Error {
    let (code, text, errno) = match e {
        wasi::ERRNO_NOENT => ("ENOENT", "no such file or directory", -2),
        wasi::ERRNO_ACCES | wasi::ERRNO_PERM | wasi::ERRNO_NOTCAPABLE => ("EACCES", "permission denied", -13),
        wasi::ERRNO_ISDIR => ("EISDIR", "illegal operation on a directory", -21),
        wasi::ERRNO_NOTDIR => ("ENOTDIR", "not a directory", -20),
        _ => ("EIO", "i/o error", -5),
    };
    let message = format!("{code}: {text}, {syscall} '{path}'");
    match Exception::from_message(ctx.clone(), &message) {
        Ok(exception) => {
            let object = exception.as_object();
            let _ = object.set("code", code);
            let _ = object.set("syscall", syscall);
            let _ = object.set("path", path);
            let _ = object.set("errno", errno);
            ctx.throw(exception.into_value())
        }
        Err(e) => e,
    }
}

/// Installs the primitives on `globalThis.__shoal_native`.
pub fn install(ctx: &Ctx<'_>) -> JsResult<()> {
    let native = Object::new(ctx.clone())?;
    native.set("digest", Function::new(ctx.clone(), digest)?)?;
    native.set("hmac", Function::new(ctx.clone(), hmac)?)?;
    native.set("pbkdf2", Function::new(ctx.clone(), pbkdf2)?)?;
    native.set("randomBytes", Function::new(ctx.clone(), random_bytes)?)?;
    native.set("zlib", Function::new(ctx.clone(), zlib)?)?;
    native.set("urlParse", Function::new(ctx.clone(), url_parse)?)?;
    native.set("urlSet", Function::new(ctx.clone(), url_set)?)?;
    native.set("fsRead", Function::new(ctx.clone(), fs_read)?)?;
    native.set("fsStat", Function::new(ctx.clone(), fs_stat)?)?;
    native.set("fsReaddir", Function::new(ctx.clone(), fs_readdir)?)?;
    crate::cipher::install(ctx, &native)?;
    crate::crypto::install(ctx, &native)?;
    ctx.globals().set("__shoal_native", native)?;
    Ok(())
}
