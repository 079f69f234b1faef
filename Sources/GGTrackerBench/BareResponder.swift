import ArgumentParser
import Foundation
import Glibc

/// `bench responder`: the least an HTTP server can do — one thread reading requests from kept-alive connections
/// and answering each with the same 10 bytes of JSON: nothing parsed beyond where the request ends, no signature,
/// no JSON read. Measured with the same load and pinning as the servers, it is this machine's
/// floor: the latency that the network stack, the scheduler and the load generator add to any server.
struct Responder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "responder",
        abstract: "Answer every HTTP request on 127.0.0.1:PORT with a fixed PONG (the machine's floor).",
        shouldDisplay: false)

    @Option(help: "The port to listen on (127.0.0.1).")
    var port: Int

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be between 1 and 65535") }
    }

    func run() throws { try BareResponder(port: port).serve() }
}

struct BareResponder {
    var port: Int

    static let answer = Array(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{\"type\":1}".utf8)

    func serve() throws {
        // A process inherits the signal mask of the thread that started it, which may block SIGTERM: unblocked, so
        // the bench's `terminate()` ends the responder.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            throw BenchFailure("bench responder: cannot listen on 127.0.0.1:\(port) (errno \(errno))")
        }
        var watched = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        var pending: [Int32: [UInt8]] = [:]
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            guard poll(&watched, nfds_t(watched.count), -1) > 0 else { continue }
            var closed: Set<Int32> = []
            for entry in watched where entry.revents != 0 {
                let descriptor = entry.fd
                if descriptor == listener {
                    let connection = accept(listener, nil, nil)
                    guard connection >= 0 else { continue }
                    setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    pending[connection] = []
                    watched.append(pollfd(fd: connection, events: Int16(POLLIN), revents: 0))
                    continue
                }
                let count = read(descriptor, &chunk, chunk.count)
                guard count > 0 else {
                    close(descriptor)
                    pending[descriptor] = nil
                    closed.insert(descriptor)
                    continue
                }
                var buffer = pending[descriptor] ?? []
                buffer += chunk[..<count]
                while let end = Self.requestEnd(in: buffer) {
                    _ = Self.answer.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                    buffer.removeFirst(end)
                }
                pending[descriptor] = buffer
            }
            if !closed.isEmpty { watched.removeAll { closed.contains($0.fd) } }
        }
    }

    /// Where the first whole request in `buffer` ends (its head and the body its Content-Length gives), if it
    /// has arrived.
    static func requestEnd(in buffer: [UInt8]) -> Int? {
        let separator = Array("\r\n\r\n".utf8)
        guard let headEnd = buffer.indices.dropLast(3).first(where: { buffer[$0..<($0 + 4)].elementsEqual(separator) })
        else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self).lowercased()
        let length =
            head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let end = headEnd + 4 + max(0, length)
        return buffer.count >= end ? end : nil
    }
}
