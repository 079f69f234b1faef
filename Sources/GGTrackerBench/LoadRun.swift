import NIOCore
import NIOHTTP1
import NIOPosix

/// One run of the load generator on a single event loop: keep-alive connections, each request's head and body
/// built before the clock starts, and every answer timed where it is read, with no hop to another thread. A
/// generator that costs little per request and answers at once is what keeps a server under test busy: with
/// one that costs more and wakes more threads, both sides wait on each other and the server's core idles.
///
/// Everything here is touched on the run's event loop only.
final class LoadRun {
    /// One request as it goes on the wire.
    struct Prepared: Sendable {
        var head: HTTPRequestHead
        var body: ByteBuffer
    }

    enum Mode {
        /// For `duration`, each connection sends its next request as soon as the last one is answered.
        case closed(duration: TimeAmount)
        /// Request `i` is due `i / rate` seconds after the start, whatever the answers; latency counts from then.
        case open(rate: Int, total: Int)
    }

    let loop: any EventLoop
    let requests: [Prepared]
    let ports: [Int]
    let mode: Mode
    private let done: EventLoopPromise<Void>
    private(set) var latencies: [Double] = []
    /// When each of `latencies` was answered, in milliseconds since the load began.
    private(set) var answeredAt: [Double] = []
    private(set) var late: [Double] = []
    private(set) var failures = 0
    /// The next request not yet sent.
    private(set) var next = 0
    private var openConnections = 0
    /// Open connections by port.
    private var openToPort: [Int]
    /// Open loop: connections with nothing outstanding, by port, and requests due while none was free.
    private var idle: [[LoadConnection]]
    private var waiting: [(index: Int, due: NIODeadline)] = []
    private var ticking: Scheduled<Void>?
    /// When the load began (all connections open): the closed loop's start, the open loop's first request's time.
    private(set) var began = NIODeadline.now()

    init(loop: any EventLoop, requests: [Prepared], ports: [Int], mode: Mode) {
        self.loop = loop
        self.requests = requests
        self.ports = ports
        self.mode = mode
        self.done = loop.makePromise()
        self.idle = ports.map { _ in [] }
        self.openToPort = ports.map { _ in 0 }
    }

    /// Opens `connections` connections (spread over the ports), then runs until the mode's end.
    func start(connections: Int) -> EventLoopFuture<Void> {
        let bound = NIOLoopBound(self, eventLoop: loop)
        let ports = ports
        expected = connections
        let opened = (0..<connections).map { number in
            ClientBootstrap(group: loop)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(
                            LoadConnection(run: bound.value, port: number % ports.count))
                    }
                }
                .connect(host: "127.0.0.1", port: ports[number % ports.count])
                .map { _ in }
        }
        // A connection is active only after its connect succeeded: the run begins with the last to become active.
        return EventLoopFuture.andAllSucceed(opened, on: loop).flatMap { bound.value.done.futureResult }
    }

    /// The connections that are open, as each became active, and how many are asked for.
    private var connected: [LoadConnection] = []
    private var expected = 0

    func opened(_ connection: LoadConnection) {
        connected.append(connection)
        if connected.count == expected { begin() }
    }

    private func begin() {
        let connections = connected
        openConnections = connections.count
        for connection in connections { openToPort[connection.port] += 1 }
        // An open loop's first request is due a little later, so it is not late for the time this takes.
        began = NIODeadline.now() + .milliseconds(mode.isOpen ? 10 : 0)
        switch mode {
        case .closed:
            for connection in connections { sendNext(on: connection) }
        case .open:
            for connection in connections { idle[connection.port].append(connection) }
            tick()
        }
    }

    /// Closed loop: the connection's next request, or its end once time is up or the requests ran out.
    private func sendNext(on connection: LoadConnection) {
        guard case .closed(let duration) = mode else { return }
        let now = NIODeadline.now()
        guard now < began + duration, next < requests.count else { return connection.close() }
        connection.send(requests[next], timedFrom: now)
        next += 1
    }

    /// Open loop: sends every request now due, each on a free connection to its port (or queued for the
    /// first to come free), then waits for the next one's time.
    private func tick() {
        guard case .open(let rate, let total) = mode else { return }
        let start = began
        let now = NIODeadline.now()
        while next < total {
            let due = Self.due(next, start: start, rate: rate)
            guard due <= now else { break }
            late.append((now - due).milliseconds)
            let port = next % ports.count
            if let connection = idle[port].popLast() {
                connection.send(requests[next], timedFrom: due)
            } else if openToPort[port] > 0 {
                waiting.append((next, due))
            } else {
                failures += 1
            }
            next += 1
        }
        if next < total {
            let bound = NIOLoopBound(self, eventLoop: loop)
            ticking = loop.scheduleTask(deadline: Self.due(next, start: start, rate: rate)) { bound.value.tick() }
        } else {
            finishOpenLoopWhenAllAnswered()
        }
    }

    static func due(_ index: Int, start: NIODeadline, rate: Int) -> NIODeadline {
        start + .nanoseconds(Int64((Double(index) / Double(rate) * 1e9).rounded()))
    }

    /// A connection's request was answered (`ok`: 200) or lost, `milliseconds` after it was due.
    func answered(_ connection: LoadConnection, ok: Bool, milliseconds: Double) {
        if ok {
            latencies.append(milliseconds)
            answeredAt.append((NIODeadline.now() - began).milliseconds)
        } else {
            failures += 1
        }
        switch mode {
        case .closed:
            sendNext(on: connection)
        case .open:
            if let first = waiting.firstIndex(where: { $0.index % ports.count == connection.port }) {
                let request = waiting.remove(at: first)
                connection.send(requests[request.index], timedFrom: request.due)
            } else {
                idle[connection.port].append(connection)
                finishOpenLoopWhenAllAnswered()
            }
        }
    }

    /// A connection closed (the server ended it, or the run did).
    func closed(_ connection: LoadConnection, outstanding: Bool) {
        if outstanding { failures += 1 }
        openConnections -= 1
        openToPort[connection.port] -= 1
        idle[connection.port].removeAll { $0 === connection }
        if openToPort[connection.port] == 0 {
            // Nothing is left to send this port's queued requests.
            failures += waiting.count { $0.index % ports.count == connection.port }
            waiting.removeAll { $0.index % ports.count == connection.port }
        }
        if openConnections == 0 {
            ticking?.cancel()
            failures += waiting.count
            waiting = []
            done.succeed()
        }
    }

    /// Ends an open loop once every request was sent and answered.
    private func finishOpenLoopWhenAllAnswered() {
        guard case .open(_, let total) = mode, next >= total, waiting.isEmpty,
            idle.map(\.count).reduce(0, +) == openConnections
        else { return }
        for connections in idle { for connection in connections { connection.close() } }
    }
}

extension LoadRun.Mode {
    var isOpen: Bool {
        if case .open = self { return true }
        return false
    }
}

extension LoadRun.Prepared {
    /// Writes the request's head, body and end through `context` (a handler just after NIO's request encoder);
    /// `promise` completes with the end's write.
    func write(to context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        context.write(NIOAny(HTTPClientRequestPart.head(head)), promise: nil)
        context.write(NIOAny(HTTPClientRequestPart.body(.byteBuffer(body))), promise: nil)
        context.write(NIOAny(HTTPClientRequestPart.end(nil)), promise: promise)
    }
}

extension TimeAmount {
    var milliseconds: Double { Double(nanoseconds) / 1e6 }
}

/// One keep-alive connection of a load run: one request outstanding at a time.
final class LoadConnection: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    let run: LoadRun
    /// The index of the run's port this connection goes to.
    let port: Int
    private var context: ChannelHandlerContext?
    private var timedFrom: NIODeadline?
    private var status: HTTPResponseStatus = .ok

    init(run: LoadRun, port: Int) {
        self.run = run
        self.port = port
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { run.opened(self) }
    }

    func channelActive(context: ChannelHandlerContext) {
        run.opened(self)
        context.fireChannelActive()
    }

    func send(_ request: LoadRun.Prepared, timedFrom: NIODeadline) {
        guard let context else { return }
        self.timedFrom = timedFrom
        request.write(to: context, promise: nil)
        context.flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): status = head.status
        case .body: break
        case .end:
            guard let from = timedFrom else { return }
            timedFrom = nil
            run.answered(self, ok: status == .ok, milliseconds: (NIODeadline.now() - from).milliseconds)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        let outstanding = timedFrom != nil
        timedFrom = nil
        self.context = nil
        run.closed(self, outstanding: outstanding)
    }

    func close() { context?.close(promise: nil) }
}
