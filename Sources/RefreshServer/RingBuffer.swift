/// A first-in, first-out queue with O(1) `append` and `removeFirst`, growing its storage by doubling.
/// The per-connection outbox; not thread-safe (it lives on the service thread).
struct RingBuffer<Element> {
    private var storage: [Element?] = []
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    @discardableResult
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    mutating func removeAll() {
        storage.removeAll()
        head = 0
        count = 0
    }

    private mutating func grow() {
        let capacity = max(8, storage.count * 2)
        var grown = [Element?](repeating: nil, count: capacity)
        for index in 0..<count { grown[index] = storage[(head + index) % storage.count] }
        storage = grown
        head = 0
    }
}
