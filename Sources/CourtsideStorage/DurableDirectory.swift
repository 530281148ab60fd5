public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Directories whose creation survives a power loss.
///
/// POSIX makes a new directory entry durable only when the directory holding it is synced: a
/// data directory created just before the first acknowledged move, and never synced into its
/// parent, may vanish on power loss with every move in it (a file system that drops what was
/// not synced, as some do, showed exactly that).
public enum DurableDirectory {
    /// Creates `directory` and any missing parents, syncing each new entry into the directory
    /// above it, and the directory itself so the files created in it next have a synced home.
    public static func create(_ directory: URL) throws {
        var missing: [URL] = []
        var cursor = directory.standardizedFileURL
        while !FileManager.default.fileExists(atPath: cursor.path) {
            missing.append(cursor)
            let parent = cursor.deletingLastPathComponent()
            if parent.path == cursor.path { break }
            cursor = parent
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // From the outermost new one inwards: each is synced into its parent.
        for created in missing.reversed() { try sync(created.deletingLastPathComponent()) }
        try sync(directory)
    }

    /// Syncs a directory's entries to the disk (fsync of the directory itself).
    public static func sync(_ directory: URL) throws {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", directory) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("fsync", directory) }
    }

    private static func failure(_ call: String, _ directory: URL) -> NSError {
        let code = errno
        return NSError(
            domain: NSPOSIXErrorDomain, code: Int(code),
            userInfo: [NSLocalizedDescriptionKey: "\(call) of directory \(directory.path): \(String(cString: strerror(code)))"])
    }
}
