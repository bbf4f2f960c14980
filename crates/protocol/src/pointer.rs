//! JSON pointers (RFC 6901) as used in finding locations and error reports.

/// Appends `/token` to `pointer`, escaping `~` as `~0` and `/` as `~1`.
///
/// ```
/// let mut p = String::from("/tool/arguments");
/// palisade_protocol::pointer::push(&mut p, "a/b~c");
/// assert_eq!(p, "/tool/arguments/a~1b~0c");
/// ```
pub fn push(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// Appends `/index` to `pointer`.
pub fn push_index(pointer: &mut String, index: usize) {
    use std::fmt::Write as _;
    let _ = write!(pointer, "/{index}");
}

/// Decodes one pointer token: `~1` is `/` and `~0` is `~`.
///
/// ```
/// assert_eq!(palisade_protocol::pointer::unescape("a~1b~0c"), "a/b~c");
/// ```
pub fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}
