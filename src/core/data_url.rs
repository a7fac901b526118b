//! `data:` URLs (RFC 2397) for files the page builds itself: CSV tables,
//! chart SVGs. Pure text; the UI hands the URL to a link.

/// A `data:` URL holding `text` with the given media type, percent-encoded
/// (RFC 2397): `data_url("text/csv", "a,b\n")` =
/// `"data:text/csv;charset=utf-8,a%2Cb%0A"`.
pub fn data_url(mime: &str, text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = format!("data:{mime};charset=utf-8,");
    out.reserve(text.len() * 2);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
    out
}
