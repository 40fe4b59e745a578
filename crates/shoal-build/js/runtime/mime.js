// Media types by file extension, and the charset Express adds to a
// Content-Type (the mime-types package over mime-db, for the extensions
// Functions name: res.type('png'), res.attachment('report.pdf'),
// req.is('json'), req.accepts('html')). An extension not listed here is
// application/octet-stream, as for mime-types an unknown one.

const BY_EXTENSION = {
  "7z": "application/x-7z-compressed", avif: "image/avif", bin: "application/octet-stream", bmp: "image/bmp",
  css: "text/css", csv: "text/csv", doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", eot: "application/vnd.ms-fontobject",
  form: "application/x-www-form-urlencoded", gif: "image/gif", gz: "application/gzip", htm: "text/html", html: "text/html",
  ico: "image/x-icon", ics: "text/calendar", jpeg: "image/jpeg", jpg: "image/jpeg", js: "text/javascript",
  json: "application/json", jsonld: "application/ld+json", map: "application/json", md: "text/markdown",
  mjs: "text/javascript", mp3: "audio/mpeg", mp4: "video/mp4", mpeg: "video/mpeg", multipart: "multipart/*",
  oga: "audio/ogg", ogg: "audio/ogg", otf: "font/otf", pdf: "application/pdf", png: "image/png",
  ppt: "application/vnd.ms-powerpoint", pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  rtf: "application/rtf", svg: "image/svg+xml", tar: "application/x-tar", text: "text/plain", tif: "image/tiff",
  tiff: "image/tiff", ts: "video/mp2t", ttf: "font/ttf", txt: "text/plain", urlencoded: "application/x-www-form-urlencoded",
  wasm: "application/wasm", wav: "audio/wav", weba: "audio/webm", webm: "video/webm", webp: "image/webp",
  woff: "font/woff", woff2: "font/woff2", xhtml: "application/xhtml+xml", xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", xml: "application/xml", yaml: "text/yaml",
  yml: "text/yaml", zip: "application/zip",
};

// Types outside text/* that mime-db gives a UTF-8 charset.
const UTF8_TYPES = new Set(["application/json", "application/javascript", "application/ld+json", "application/manifest+json"]);

/** The media type of an extension or file name (`png`, `.png`, `a/b.png`), or false. */
export function lookup(name) {
  const text = String(name).toLowerCase();
  const ext = text.slice(text.lastIndexOf(".") + 1);
  return BY_EXTENSION[ext] || false;
}

/**
 * A full Content-Type from a type or an extension, with its charset when
 * the type has one and names none; false for an unknown extension.
 */
export function contentType(value) {
  const type = String(value).includes("/") ? String(value) : lookup(value);
  if (!type) return false;
  if (/charset/i.test(type)) return type;
  const essence = type.split(";")[0].trim().toLowerCase();
  return essence.startsWith("text/") || UTF8_TYPES.has(essence) ? `${type}; charset=utf-8` : type;
}
