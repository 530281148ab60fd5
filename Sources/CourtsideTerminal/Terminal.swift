public import CourtsideClient
public import CourtsideModel
import Foundation
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal a board or the keeper draws on: raw keys in, whole screens out.
///
/// Raw mode lets single keys through without Enter; the previous mode is restored by
/// ``restore()``, which the owner calls on every way out.
public final class Terminal {
    private var saved = termios()
    private var isRaw = false

    public init() {}

    /// Whether standard output is a terminal (not a pipe or a file).
    public static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1 }

    /// Switches standard input to raw mode and hides the cursor.
    public func enterRawMode() {
        guard !isRaw, tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var raw = saved
        cfmakeraw(&raw)
        raw.c_oflag |= tcflag_t(OPOST)  // keep "\n" meaning a new line on output
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        isRaw = true
        write("\u{1B}[?1049h\u{1B}[?25l")  // alternate screen, hidden cursor
    }

    /// Restores the terminal as it was.
    public func restore() {
        guard isRaw else { return }
        write("\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        isRaw = false
    }

    /// Replaces the screen's content with these lines.
    public func draw(_ lines: [String]) {
        write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\u{1B}[J")
    }

    /// Reads the keys waiting on standard input (call after a poll said it is readable).
    public func readKeys() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    /// The loop of a live screen: raw mode, then draw, wait up to a tenth of a second for a key
    /// or an event, hand keys to `key` (redrawing after each), apply events, and again, until q
    /// or Ctrl-C. Redrawing on every turn keeps the clock running between events.
    public func run(
        following sync: DisplaySync, screen: () throws(CourtsideError) -> [String], key: (UInt8) -> Void
    ) throws(CourtsideError) {
        enterRawMode()
        defer { restore() }
        var poller = ZMQPoller()
        poller.add(sync.socket)
        let keys = poller.add(fileDescriptor: STDIN_FILENO)
        while true {
            draw(try screen())
            let ready: [Bool]
            do {
                ready = try poller.poll(timeoutMilliseconds: 100)
            } catch {
                throw CourtsideError(.unreachable, "polling failed: \(error)")
            }
            if ready[keys] {
                for pressed in readKeys() {
                    if pressed == UInt8(ascii: "q") || pressed == 3 { return }
                    key(pressed)
                    draw(try screen())
                }
            }
            try sync.pump(timeoutMilliseconds: 0)
        }
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    deinit { restore() }
}
