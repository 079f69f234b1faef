import Foundation
import GGTrackerServer

/// The decoders behind every signed endpoint, and the text command parser, under libFuzzer:
///
///     swift build -c release --scratch-path .build-fuzz --product ggtracker-fuzz \
///         -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
///     .build-fuzz/release/ggtracker-fuzz -runs=1000000 Fuzz/corpus
///
/// Built normally (without `FUZZING`), the same program replays the files it is given, so a crashing input
/// found by the fuzzer can be run under a debugger.
let fuzzer = try! DecoderFuzzer()

func runOne(_ input: Data) {
    let done = DispatchSemaphore(value: 0)
    Task {
        _ = await fuzzer.run(input)
        done.signal()
    }
    done.wait()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    runOne(Data(bytes: bytes, count: count))
    return 0
}

#if !FUZZING
    @main
    struct Replay {
        static func main() throws {
            let files = CommandLine.arguments.dropFirst()
            for file in files {
                runOne(try Data(contentsOf: URL(fileURLWithPath: file)))
            }
            print("replayed \(files.count) inputs without a crash")
        }
    }
#endif
