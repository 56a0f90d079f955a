//! Where results go: standard output (`-o -`, or no `-o`), or a file written whole or not at
//! all, with its temporary file removed when the run is interrupted.
//!
//! # Atomic files
//! [`AtomicFile::create`] checks the target and creates a temporary file `.nphase-XXXXXX.tmp` in
//! the target's directory *before* the work starts, so that an unwritable target is reported
//! before a long run rather than after it. [`AtomicFile::commit`] fills it, flushes it to disk
//! and renames it over the target; dropping an uncommitted one removes it. The target:
//!
//! * missing: created, mode 0644 on Unix;
//! * a regular file: replaced, keeping its permissions;
//! * a symbolic link to a regular file: the file it names is replaced; the link stays;
//! * anything else — a directory, a FIFO, a socket, a device, a link to one of them, a dangling
//!   link — is refused with an [`OutputError`] and left as it was. A rename would put a regular
//!   file in its place (as root, `-o /dev/null` replaced the device node); to stream into a
//!   pipe, write to standard output instead.
//!
//! # Interruption (Unix)
//! [`install_signal_cleanup`] starts a thread that waits for SIGINT, SIGTERM and SIGHUP. On
//! one, it removes every temporary file still pending and ends the process by the same signal
//! (its default action, so a shell sees an interrupted run, not an exit code). The thread is
//! signal-hook's: the signal handler only wakes it, and the cleanup runs as ordinary code.
//!
//! The cleanup and a commit's rename exclude each other (one lock over the pending files), and a
//! commit that finds a signal already received does not rename. So an interrupted run leaves
//! the target as it was, or — when the signal came after the rename had begun — complete; never
//! a temporary file, never a half-written target.

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Where a command writes its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Standard output: no `-o`, or `-o -`.
    Stdout,
    /// A file (written with [`AtomicFile`]); a file named `-` is `./-`.
    File(PathBuf),
}

impl Target {
    /// The target of an `-o` argument.
    pub fn from_arg(path: Option<&Path>) -> Target {
        match path {
            None => Target::Stdout,
            Some(p) if p.as_os_str() == "-" => Target::Stdout,
            Some(p) => Target::File(p.to_owned()),
        }
    }
}

/// Why an output file cannot be written. `Display` is the reason only; callers name the path.
#[derive(Debug)]
pub enum OutputError {
    /// The target exists and is not a regular file (nor a link to one).
    NotRegular {
        /// What it is: `"a directory"`, `"a FIFO"`, `"a symbolic link to a FIFO"`, …
        kind: String,
        /// Whether it is something one streams into (a FIFO, socket or device): the message
        /// then points to standard output.
        stream: bool,
    },
    /// The target is a symbolic link to nothing.
    DanglingLink,
    /// The temporary file cannot be created in the target's directory.
    CreateTemp {
        /// The directory.
        dir: PathBuf,
        /// The reason.
        kind: io::ErrorKind,
    },
    /// Any other I/O failure (writing, flushing, renaming, inspecting the target).
    Io(io::Error),
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::NotRegular { kind, stream } => {
                let to = if kind.starts_with("a symbolic link") {
                    "to "
                } else {
                    ""
                };
                write!(f, "it is {kind}, not {to}a regular file")?;
                if *stream {
                    f.write_str(" (use -o - to write to standard output)")?;
                }
                Ok(())
            }
            OutputError::DanglingLink => f.write_str("it is a symbolic link to a missing file"),
            OutputError::CreateTemp { dir, kind } => {
                write!(f, "cannot create a file in {}: {kind}", dir.display())
            }
            OutputError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for OutputError {}

impl From<io::Error> for OutputError {
    fn from(e: io::Error) -> Self {
        OutputError::Io(e)
    }
}

/// A file being written: a temporary file beside its target, renamed over it by
/// [`commit`](AtomicFile::commit), removed if dropped first (or on a signal).
#[derive(Debug)]
pub struct AtomicFile {
    /// The file to replace (a link's target, resolved).
    target: PathBuf,
    /// Dropped before `registration`: the file is gone before the list forgets it.
    tmp: tempfile::NamedTempFile,
    registration: Registration,
}

impl AtomicFile {
    /// Checks `path` (see the module doc) and creates the temporary file beside the file it
    /// names.
    pub fn create(path: &Path) -> Result<AtomicFile, OutputError> {
        let target = resolve(path)?;
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
            _ => PathBuf::from("."),
        };
        // Created and registered under the lock: a signal's cleanup sees it or it does not
        // exist yet.
        let mut pending = pending();
        let tmp = tempfile::Builder::new()
            .prefix(".nphase-")
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(|e| OutputError::CreateTemp {
                dir: dir.clone(),
                kind: e.kind(),
            })?;
        let registration = Registration::new(&mut pending, tmp.path());
        Ok(AtomicFile {
            target,
            tmp,
            registration,
        })
    }

    /// Writes `bytes`, flushes them to disk and renames the file over the target. On an error
    /// the target is as it was and the temporary file is removed.
    pub fn commit(self, bytes: &[u8]) -> Result<(), OutputError> {
        let AtomicFile {
            target,
            mut tmp,
            mut registration,
        } = self;
        tmp.write_all(bytes)?;
        tmp.as_file().sync_all()?;
        let permissions = match fs::metadata(&target) {
            Ok(meta) => Some(meta.permissions()),
            Err(_) => default_permissions(),
        };
        if let Some(p) = permissions {
            tmp.as_file().set_permissions(p)?;
        }
        // Held to the end; on an early return it is released before `tmp` and `registration`
        // (declared earlier) are dropped.
        let mut pending = pending();
        if INTERRUPTED.load(Ordering::SeqCst) {
            // The signal thread is waiting for the lock, to remove this file and end the
            // process: let it.
            drop(pending);
            loop {
                std::thread::park();
            }
        }
        // The target may have been replaced since `create` (by a FIFO, say).
        let target = resolve(&target)?;
        // On failure the temporary file comes back in the error, and goes with it.
        let result = tmp.persist(&target).map_err(|e| OutputError::Io(e.error));
        registration.release(&mut pending);
        result.map(|_| ())
    }
}

/// Writes `bytes` to `path` as a whole or not at all (see the module doc).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    AtomicFile::create(path)?.commit(bytes)
}

/// The file to replace for `path`: itself when missing or a regular file, the file a link
/// names; an [`OutputError`] for anything else.
fn resolve(path: &Path) -> Result<PathBuf, OutputError> {
    let meta = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(path.to_owned()),
        Err(e) => return Err(e.into()),
        Ok(meta) => meta,
    };
    if meta.is_file() {
        return Ok(path.to_owned());
    }
    if !meta.file_type().is_symlink() {
        let (kind, stream) = kind_of(&meta.file_type());
        return Err(OutputError::NotRegular {
            kind: kind.to_owned(),
            stream,
        });
    }
    let real = match fs::canonicalize(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(OutputError::DanglingLink),
        Err(e) => return Err(e.into()),
        Ok(real) => real,
    };
    let meta = fs::metadata(&real)?;
    if meta.is_file() {
        Ok(real)
    } else {
        let (kind, stream) = kind_of(&meta.file_type());
        Err(OutputError::NotRegular {
            kind: format!("a symbolic link to {kind}"),
            stream,
        })
    }
}

/// What a file that is not a regular file is, and whether one streams into it.
fn kind_of(file_type: &fs::FileType) -> (&'static str, bool) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return ("a FIFO", true);
        }
        if file_type.is_socket() {
            return ("a socket", true);
        }
        if file_type.is_char_device() {
            return ("a character device", true);
        }
        if file_type.is_block_device() {
            return ("a block device", true);
        }
    }
    if file_type.is_dir() {
        ("a directory", false)
    } else {
        ("neither a file nor a directory", true)
    }
}

#[cfg(unix)]
fn default_permissions() -> Option<fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<fs::Permissions> {
    None
}

// ---------------------------------------------------------------------------------------------
// Pending temporary files and the signals that remove them.
// ---------------------------------------------------------------------------------------------

/// The temporary files of this process not yet renamed or removed.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Set by the signal thread before it takes [`PENDING`]'s lock.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic while holding the lock leaves a list that is still right.
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// A temporary file's place in [`PENDING`], given up by [`release`](Registration::release) or
/// when dropped.
#[derive(Debug)]
struct Registration(Option<PathBuf>);

impl Registration {
    fn new(pending: &mut Vec<PathBuf>, path: &Path) -> Self {
        pending.push(path.to_owned());
        Registration(Some(path.to_owned()))
    }

    fn release(&mut self, pending: &mut Vec<PathBuf>) {
        if let Some(path) = self.0.take() {
            pending.retain(|p| *p != path);
        }
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        if self.0.is_some() {
            self.release(&mut pending());
        }
    }
}

/// Starts the thread that removes pending temporary files on SIGINT, SIGTERM or SIGHUP and
/// then ends the process by that signal (see the module doc). Call it once, first thing.
#[cfg(unix)]
pub fn install_signal_cleanup() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("nphase-signals".to_owned())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                INTERRUPTED.store(true, Ordering::SeqCst);
                let pending = pending();
                for path in pending.iter() {
                    let _ = fs::remove_file(path);
                }
                // Ends the process while holding the lock, so no rename can follow. Should
                // the default action not end it, exit with the shell's code for the signal.
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

/// No signal cleanup off Unix: an interrupted run may leave its `.nphase-*.tmp` file.
#[cfg(not(unix))]
pub fn install_signal_cleanup() -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn atomic_write_replaces_and_refuses_cleanly() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("out.json");
        write_atomic(&path, b"one").expect("write");
        write_atomic(&path, b"two").expect("overwrite");
        assert_eq!(fs::read(&path).expect("read"), b"two");
        assert!(write_atomic(&dir.path().join("missing/out.json"), b"x").is_err());
        assert!(matches!(
            write_atomic(dir.path(), b"x"),
            Err(OutputError::NotRegular { stream: false, .. })
        ));
        assert_eq!(names(dir.path()), ["out.json"], "no temporary left behind");
    }

    #[test]
    fn the_temporary_file_exists_until_commit_and_goes_when_dropped() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("out.json");
        let file = AtomicFile::create(&path).expect("create");
        let left = names(dir.path());
        assert_eq!(left.len(), 1);
        assert!(left[0].starts_with(".nphase-") && left[0].ends_with(".tmp"));
        assert_eq!(
            pending()
                .iter()
                .filter(|p| p.starts_with(dir.path()))
                .count(),
            1
        );
        drop(file);
        assert!(names(dir.path()).is_empty(), "removed on drop");
        assert_eq!(
            pending()
                .iter()
                .filter(|p| p.starts_with(dir.path()))
                .count(),
            0
        );

        AtomicFile::create(&path)
            .expect("create")
            .commit(b"done")
            .expect("commit");
        assert_eq!(names(dir.path()), ["out.json"]);
        assert_eq!(
            pending()
                .iter()
                .filter(|p| p.starts_with(dir.path()))
                .count(),
            0
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_to_files_are_written_through_and_other_links_refused() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().expect("temp dir");
        let real = dir.path().join("real.json");
        fs::write(&real, "old").expect("write");
        let link = dir.path().join("link.json");
        symlink("real.json", &link).expect("symlink");
        write_atomic(&link, b"new").expect("through the link");
        assert!(
            fs::symlink_metadata(&link)
                .expect("link")
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&real).expect("read"), b"new");

        let to_dir = dir.path().join("to_dir");
        symlink(".", &to_dir).expect("symlink");
        let e = write_atomic(&to_dir, b"x").expect_err("refused");
        assert_eq!(
            e.to_string(),
            "it is a symbolic link to a directory, not to a regular file"
        );
        let dangling = dir.path().join("dangling");
        symlink("nowhere", &dangling).expect("symlink");
        let e = write_atomic(&dangling, b"x").expect_err("refused");
        assert_eq!(e.to_string(), "it is a symbolic link to a missing file");
        assert!(fs::symlink_metadata(&dangling).is_ok(), "left as it was");
        assert!(!dir.path().join("nowhere").exists());
    }

    #[test]
    fn a_dash_is_standard_output() {
        assert_eq!(Target::from_arg(None), Target::Stdout);
        assert_eq!(Target::from_arg(Some(Path::new("-"))), Target::Stdout);
        assert_eq!(
            Target::from_arg(Some(Path::new("./-"))),
            Target::File(PathBuf::from("./-"))
        );
    }
}
