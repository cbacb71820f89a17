internal import CLibXML2

extension XMLPlistReader {
    /// Sets libxml2 up for threads: calls `xmlInitParser` once, before any other libxml2 call.
    /// libxml2 lets threads parse different documents at once only after that call, which must
    /// not itself race with other libxml2 calls; its documentation asks for it in the main
    /// thread, first ("Thread safety", xmlsoft.org/threads.html). Without it, libxml2 sets its
    /// globals up lazily, in whichever thread comes first: two parse threads can both do it, and
    /// the first thread to ask becomes libxml2's "main thread". That corrupted the heap in rare
    /// runs over many files (an abort in `free()`).
    ///
    /// The command-line tool calls this first thing; `parse` calls it too, for other users. Later
    /// calls return at once: a global's initializer runs once, other threads waiting for it.
    public static func prepareForThreads() {
        _ = libxml2Ready
    }

    private static let libxml2Ready: Bool = {
        xmlInitParser()
        return true
    }()
}
