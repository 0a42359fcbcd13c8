import Foundation
import PageFixtures
import RefreshKit
import Testing

@testable import RefreshWire

/// `welcome.catalogue` is written from the presets, and web/test/fixtures/catalogue.json is the seeds' as the
/// encoder writes it: the page's seed-name tests read it, so the page keeps no table of its own.
@Suite struct CatalogueJSONTests {

    static func catalogueJSON(_ presets: [Preset]) -> String {
        var buffer: [UInt8] = []
        appendJSON(to: &buffer, bound: MessageEncoder.catalogueBound(presets)) { w in
            MessageEncoder().appendCatalogue(presets, to: &w)
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func thePageFixtureIsTheSeedsCatalogue() throws {
        let current = Self.catalogueJSON(Preset.all) + "\n"
        #expect(
            try PageFixtures.committed(current, named: "catalogue.json") == current,
            "\(PageFixtures.differs("catalogue.json", filter: "CatalogueJSON"))")
    }

    @Test func theWelcomeCarriesTheCatalogue() throws {
        let mine = Preset(name: "mine", summary: "my \"own\"", configuration: Preset.ios.configuration)
        var welcome: [UInt8] = []
        MessageEncoder().encode(
            Welcome(
                session: "s", token: "t", preset: "ios", presets: Preset.names + ["mine"],
                catalogue: Preset.all + [mine], configuration: Preset.ios.configuration, serverTime: .zero),
            into: &welcome)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(welcome)) as? [String: Any])
        let catalogue = try #require(object["catalogue"] as? [String: [String: Any]])
        #expect(Set(catalogue.keys) == Set(Preset.names + ["mine"]))
        #expect(catalogue["jh"]?["library"] as? String == "JHPullToRefreshKit")
        #expect(catalogue["mine"]?["library"] == nil)
        #expect(catalogue["mine"]?["summary"] as? String == "my \"own\"")
        #expect(
            catalogue["ht"]?["controls"] as? [String: String] == [
                "top": "arrow", "bottom": "footer", "left": "side", "right": "side",
            ])
        #expect(catalogue["jh"]?["controls"] as? [String: String] == ["top": "colorCycle"])
        let iq = try #require(catalogue["iq"]?["eventNames"] as? [String: Any])
        #expect(iq["armed"] as? [String] == [".eligible"])
        #expect((iq["didStart"] as? [String: [String]]) == ["refresh": [".refreshing"], "loadMore": ["loadingBegin"]])
        let config = try #require(object["config"] as? [String: Any])
        let top = try #require((config["edges"] as? [String: [String: Any]])?["top"])
        #expect(top["control"] as? String == "spinner")
    }

    @Test func aWelcomeWithoutACatalogueWritesNone() throws {
        var welcome: [UInt8] = []
        MessageEncoder().encode(
            Welcome(
                session: "s", token: "t", preset: "ios", presets: ["ios"], configuration: Preset.ios.configuration,
                serverTime: .zero), into: &welcome)
        #expect(!String(decoding: welcome, as: UTF8.self).contains("catalogue"))
    }
}
