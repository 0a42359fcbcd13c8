#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// C memory that libwebsockets keeps pointers to (protocol table, mount, MIME list, retry policy,
/// strings). lws uses these in place until `lws_context_destroy`, so they live exactly as long as the
/// context: allocated before it is created, released after it is destroyed.
final class CResources {
    private var releases: [() -> Void] = []

    /// A NUL-terminated copy of `string`.
    func string(_ string: String) -> UnsafePointer<CChar> {
        let pointer = strdup(string)!
        releases.append { free(pointer) }
        return UnsafePointer(pointer)
    }

    /// One `T` at a stable address.
    func allocate<T>(_ value: T) -> UnsafeMutablePointer<T> {
        allocateArray([value])
    }

    /// `values`, contiguous, at a stable address.
    func allocateArray<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: values.count)
        pointer.initialize(from: values, count: values.count)
        let count = values.count
        releases.append {
            pointer.deinitialize(count: count)
            pointer.deallocate()
        }
        return pointer
    }

    /// Frees everything, newest first. Call only after `lws_context_destroy` returned.
    func releaseAll() {
        while let release = releases.popLast() { release() }
    }

    deinit { releaseAll() }
}
