/// Row heights with their prefix sums, as a Fenwick (binary indexed) tree: a height changes, a height is added
/// or removed at the end, a prefix sum is read and the row at a y is found, each in O(log n) (docs/LAYOUT.md).
///
/// Fenwick, "A new data structure for cumulative frequency tables" (Software: Practice and Experience, 1994):
/// node `i` (1-based) holds the sum of the `i & -i` values ending at value `i`. A prefix sum adds at most
/// ⌊log₂ n⌋ + 1 nodes, and a change touches at most as many.
///
/// Adding at the end and removing from the end leave every node before it untouched, so the prefix sums of the
/// rows above keep their exact bits (a page loaded below moves nothing above it, not even by a rounding error).
/// Heights that are multiples of a power of two (¼ px, 1/64 px, …) below 2⁴⁰ px add without any rounding.
public struct HeightSums: Hashable, Sendable, Codable {
    /// The heights, in order.
    public private(set) var values: [Double]

    /// The Fenwick nodes, 1-based (`tree[0]` is unused and 0).
    private var tree: [Double]

    /// The sums of `values`, built in O(n).
    public init(_ values: [Double] = []) {
        self.values = values
        tree = [0] + values
        let count = values.count
        for node in stride(from: 1, through: count, by: 1) {
            let parent = node + (node & -node)
            if parent <= count { tree[parent] += tree[node] }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case values, tree
    }

    /// Decodes the heights and their nodes as they were encoded (so a restored snapshot has the same bits);
    /// refuses nodes that do not match the heights' count.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        values = try container.decode([Double].self, forKey: .values)
        tree = try container.decode([Double].self, forKey: .tree)
        guard tree.count == values.count + 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .tree, in: container,
                debugDescription: "\(tree.count) nodes for \(values.count) heights (expected \(values.count + 1))")
        }
    }

    /// How many heights are held.
    public var count: Int { values.count }

    /// The sum of every height.
    public var total: Double { prefix(count) }

    /// The sum of the first `count` heights (0 for none), in O(log n).
    public func prefix(_ count: Int) -> Double {
        precondition(count >= 0 && count <= values.count, "prefix \(count) outside 0...\(values.count)")
        var sum = 0.0
        var node = count
        while node > 0 {
            sum += tree[node]
            node -= node & -node
        }
        return sum
    }

    /// Sets the height at `index`; returns how many nodes it touched (at most ⌊log₂ n⌋ + 1).
    @discardableResult
    public mutating func set(_ index: Int, to height: Double) -> Int {
        precondition(index >= 0 && index < values.count, "index \(index) outside 0..<\(values.count)")
        let delta = height - values[index]
        values[index] = height
        var touched = 0
        var node = index + 1
        while node < tree.count {
            tree[node] += delta
            node += node & -node
            touched += 1
        }
        return touched
    }

    /// Adds a height at the end, in O(log n); the nodes before it do not change.
    public mutating func append(_ height: Double) {
        let node = values.count + 1
        let low = node & -node
        // The new node covers the `low` values ending at itself: the `low − 1` before it plus the new one.
        let covered = prefix(node - 1) - prefix(node - low)
        values.append(height)
        tree.append(covered + height)
    }

    /// Makes room for `count` heights in all, so that appending up to that many allocates nothing more.
    public mutating func reserveCapacity(_ count: Int) {
        values.reserveCapacity(count)
        tree.reserveCapacity(count + 1)
    }

    /// Removes the last `count` heights; the nodes before them do not change.
    public mutating func removeLast(_ count: Int) {
        values.removeLast(count)
        tree.removeLast(count)
    }

    /// The index of the height that holds `y`: the largest `i` with `prefix(i) ≤ y`, clamped to `0..<count`
    /// (heights are positive, so the prefix sums increase). O(log n). `count` must be positive.
    public func index(containing y: Double) -> Int {
        precondition(!values.isEmpty, "no heights")
        // Binary lifting down the tree (Fenwick's search), then a check against `prefix` itself so that the
        // answer agrees with the positions `prefix` gives, rounding included.
        var position = 0
        var remaining = y
        var step = 1
        while step * 2 <= values.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next <= values.count && tree[next] <= remaining {
                position = next
                remaining -= tree[next]
            }
            step /= 2
        }
        var index = min(position, values.count - 1)
        while index > 0 && prefix(index) > y { index -= 1 }
        while index + 1 < values.count && prefix(index + 1) <= y { index += 1 }
        return index
    }
}
