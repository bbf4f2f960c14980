//! `palisade audit verify FILE`: checks an audit log's hash chain.

use std::io::Write;
use std::path::Path;

use palisade_checks::audit::{self, VerifyError};

/// Verifies the audit log at `path`.
///
/// Prints the record count and the last hash and returns 0 when the chain
/// holds; prints the first bad line to stderr and returns 1 when it does not.
/// A file that cannot be read is an error (exit 2).
pub(crate) fn verify(path: &Path) -> anyhow::Result<u8> {
    match audit::verify(path) {
        Ok(report) => {
            let mut out = std::io::stdout().lock();
            writeln!(out, "ok: {report}")?;
            if report.approval_links_elsewhere > 0 {
                writeln!(
                    out,
                    "note: {} approval answers or uses link to records not in this log (another replica's log, or one started after them)",
                    report.approval_links_elsewhere
                )?;
            }
            if report.torn_tail_bytes > 0 {
                writeln!(
                    out,
                    "note: ignored an incomplete last line of {} bytes (a write cut short, never acknowledged)",
                    report.torn_tail_bytes
                )?;
            }
            out.flush()?;
            Ok(0)
        }
        Err(VerifyError::Invalid { line, reason }) => {
            eprintln!("palisade: {}: line {line}: {reason}", path.display());
            Ok(1)
        }
        Err(e) => Err(e.into()),
    }
}
