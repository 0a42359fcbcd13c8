import Foundation
import Testing

@testable import RefreshKit

/// Sessions started on one preset hold its edge configurations, not copies (docs/PERFORMANCE.md, "Memory per
/// connected session"); a configure gives a control its own only when its configuration changes, and a model's
/// equality, coding and frames do not depend on where its configuration lies.
@Suite struct SharedEdgeConfigurationTests {
    static func model(_ preset: Preset = .ht) throws -> ListModel {
        try ListModel(viewport: Size(width: 390, height: 844), starting: preset, time: .zero)
    }

    @Test func modelsStartedOnOnePresetShareItsEdges() throws {
        let (a, b) = (try Self.model(), try Self.model())
        for index in Edge.allCases.indices {
            #expect(a.controls[index].shared.isShared(with: b.controls[index].shared))
            #expect(a.controls[index].shared.isShared(with: Preset.ht.sharedEdge(Edge.allCases[index])))
        }
    }

    @Test func aConfigureGivesOnlyTheChangedEdgeItsOwn() throws {
        var model = try Self.model()
        var top = ConfigurationPatch.EdgePatch()
        top[\.triggerDistance] = 99
        try model.apply(.configure(ConfigurationPatch(edges: [.top: top])), at: Timestamp(microseconds: 1_000))
        for (index, edge) in Edge.allCases.enumerated() {
            let shared = model.controls[index].shared.isShared(with: Preset.ht.sharedEdge(edge))
            #expect(shared == (edge != .top), "\(edge)")
        }
        #expect(model.controls[Edge.allCases.firstIndex(of: .top)!].configuration.triggerDistance == 99)
    }

    @Test func aDecodedModelEqualsItsOriginalAndFramesAlike() throws {
        var model = try Self.model()
        let decoded = try JSONDecoder().decode(ListModel.self, from: JSONEncoder().encode(model))
        #expect(decoded == model)
        #expect(!decoded.controls[0].shared.isShared(with: model.controls[0].shared))
        var copy = decoded
        #expect(copy.frame() == model.frame())
    }
}
