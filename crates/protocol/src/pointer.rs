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
///
/// ```
/// let mut p = String::from("/checks");
/// palisade_protocol::pointer::push_index(&mut p, 0);
/// palisade_protocol::pointer::push_index(&mut p, 10_907);
/// assert_eq!(p, "/checks/0/10907");
/// ```
pub fn push_index(pointer: &mut String, index: usize) {
    // Digit by digit: a policy's lists hold tens of thousands of entries,
    // and the formatting machinery is most of the cost of a pointer.
    pointer.push('/');
    let mut unit = 1usize;
    while index / unit >= 10 {
        unit *= 10;
    }
    loop {
        pointer.push(char::from(b'0' + (index / unit % 10) as u8));
        if unit == 1 {
            break;
        }
        unit /= 10;
    }
}

/// Decodes one pointer token: `~1` is `/` and `~0` is `~`.
///
/// ```
/// assert_eq!(palisade_protocol::pointer::unescape("a~1b~0c"), "a/b~c");
/// ```
pub fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    #[test]
    fn push_index_writes_decimal() {
        for i in (0..2_000).chain([9, 10, 99, 100, 999_999, 1_000_000, usize::MAX]) {
            let mut p = String::from("/a");
            super::push_index(&mut p, i);
            assert_eq!(p, format!("/a/{i}"));
        }
    }
}
