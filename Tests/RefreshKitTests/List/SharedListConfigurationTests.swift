import Foundation
import Testing

@testable import RefreshKit

/// Models started on one preset hold its configuration, not a copy each (docs/PERFORMANCE.md, "Memory per connected
/// session"); a configure that changes it gives the model its own, and a model's equality and coding do not depend
/// on where its configuration lies.
@Suite struct SharedListConfigurationTests {
    static func model(_ preset: Preset = .ht) throws -> ListModel {
        try ListModel(viewport: Size(width: 390, height: 844), starting: preset, time: .zero)
    }

    @Test func modelsStartedOnOnePresetShareItsConfiguration() throws {
        let (a, b) = (try Self.model(), try Self.model())
        #expect(a.sharedConfiguration.isShared(with: b.sharedConfiguration))
        #expect(a.sharedConfiguration.isShared(with: Preset.ht.sharedConfiguration))
        #expect(a.configuration == Preset.ht.configuration)
    }

    @Test func aConfigureThatChangesItGivesTheModelItsOwn() throws {
        var model = try Self.model()
        let same = Preset.ht.configuration.insets
        try model.apply(.configure(ConfigurationPatch(insets: same)), at: Timestamp(microseconds: 1_000))
        #expect(model.sharedConfiguration.isShared(with: Preset.ht.sharedConfiguration), "nothing changed")
        let other = EdgeInsets(top: same.top + 10, left: same.left, bottom: same.bottom, right: same.right)
        try model.apply(.configure(ConfigurationPatch(insets: other)), at: Timestamp(microseconds: 2_000))
        #expect(!model.sharedConfiguration.isShared(with: Preset.ht.sharedConfiguration))
        #expect(model.configuration.insets == other && Preset.ht.configuration.insets == same)
    }

    @Test func aDecodedModelEqualsItsOriginalAndIsCodedUnderTheOldKey() throws {
        let model = try Self.model()
        let data = try JSONEncoder().encode(model)
        let decoded = try JSONDecoder().decode(ListModel.self, from: data)
        #expect(decoded == model)
        #expect(!decoded.sharedConfiguration.isShared(with: model.sharedConfiguration))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["configuration"] is [String: Any] && object["sharedConfiguration"] == nil)
    }
}
