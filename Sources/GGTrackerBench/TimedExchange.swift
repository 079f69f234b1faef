import NIOCore
import NIOHTTP1
import NIOPosix

/// A kept-alive connection to one server that sends one request at a time and times its answer on the event loop,
/// from the request's write to the answer's last byte, so no thread hop of the caller's is in the time.
final class TimedExchange: Sendable {
    struct Answer: Sendable {
        var status: HTTPResponseStatus
        var body: ByteBuffer
        var milliseconds: Double
    }

    private let channel: any Channel

    private init(channel: any Channel) { self.channel = channel }

    static func connect(port: Int, on loop: any EventLoop) async throws -> TimedExchange {
        let channel = try await ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ExchangeHandler())
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return TimedExchange(channel: channel)
    }

    func send(_ request: LoadRun.Prepared) async throws -> Answer {
        // A write to a closed connection would never reach the handler that answers it.
        guard channel.isActive else { throw ChannelError.ioOnClosedChannel }
        let answer = channel.eventLoop.makePromise(of: Answer.self)
        channel.writeAndFlush(ExchangeHandler.Outbound(request: request, answer: answer), promise: nil)
        return try await answer.futureResult.get()
    }

    func close() async { try? await channel.close() }
}

/// Writes one request and collects its answer, timed from the write to the answer's end.
private final class ExchangeHandler: ChannelDuplexHandler {
    struct Outbound: Sendable {
        var request: LoadRun.Prepared
        var answer: EventLoopPromise<TimedExchange.Answer>
    }
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = Outbound
    typealias OutboundOut = HTTPClientRequestPart

    private var pending: (answer: EventLoopPromise<TimedExchange.Answer>, sent: NIODeadline)?
    private var status: HTTPResponseStatus = .ok
    private var body = ByteBuffer()

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let outbound = unwrapOutboundIn(data)
        guard pending == nil else {
            outbound.answer.fail(ChannelError.inappropriateOperationForState)
            return
        }
        body.clear()
        pending = (outbound.answer, .now())
        outbound.request.write(to: context, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): status = head.status
        case .body(var part): body.writeBuffer(&part)
        case .end:
            guard let (answer, sent) = pending else { return }
            pending = nil
            let milliseconds = (NIODeadline.now() - sent).milliseconds
            answer.succeed(.init(status: status, body: body, milliseconds: milliseconds))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        pending?.answer.fail(error)
        pending = nil
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending?.answer.fail(ChannelError.ioOnClosedChannel)
        pending = nil
        context.fireChannelInactive()
    }
}
