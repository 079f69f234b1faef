import Foundation
import GGTrackerFuzzing

/// The decoders behind every signed endpoint, and the text command parser, under libFuzzer:
///
///     swift build -c release --scratch-path .build-fuzz --product ggtracker-fuzz \
///         -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
///     .build-fuzz/release/ggtracker-fuzz -runs=1000000 -max_len=4096 -detect_leaks=0 Fuzz/corpus
///
/// Built normally (without `FUZZING`), the same program replays the files it is given, so a crashing input
/// found by the fuzzer can be run under a debugger.
let fuzzer = Task { try! await DecoderFuzzer() }

func runOne(_ input: Data) {
    let done = DispatchSemaphore(value: 0)
    Task {
        _ = await fuzzer.value.run(input)
        done.signal()
    }
    done.wait()
}

#if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    func runDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32
#endif

@main
struct FuzzMain {
    static func main() throws {
        #if FUZZING
            // libFuzzer drives: it reads its flags and the corpus from the command line.
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(
                runDriver(&argc, &argv) { bytes, count in
                    runOne(bytes.map { Data(bytes: $0, count: count) } ?? Data())
                    return 0
                })
        #else
            let files = CommandLine.arguments.dropFirst()
            for file in files {
                runOne(try Data(contentsOf: URL(fileURLWithPath: file)))
            }
            print("replayed \(files.count) inputs without a crash")
        #endif
    }
}
