extension ListModel {
    /// A model at rest at the top of its feed, with the first page loaded, configured by the preset called
    /// `preset` in `presets` (the seeds unless told).
    /// - Parameters:
    ///   - viewport: the page's viewport, CSS px.
    ///   - devicePixelRatio: device pixels per CSS px; motion comes to rest within one device pixel.
    ///   - preset: the name of a preset of `presets` (see ``PresetCatalogue/names``).
    ///   - presets: the presets the name is looked up in.
    ///   - seed: seeds the simulated feed (failures).
    ///   - feed: the simulated feed, or an external source.
    ///   - time: the model's start.
    public init(
        viewport: Size, devicePixelRatio: Double = 1, preset: String = Preset.ios.name,
        in presets: PresetCatalogue = .seeds, seed: UInt64 = 1, feed: FeedMode = .simulated, time: Timestamp
    ) throws(ListModelError) {
        guard let found = presets.named(preset) else { throw .unknownPreset(preset, known: presets.names) }
        try self.init(
            viewport: viewport, devicePixelRatio: devicePixelRatio, starting: found, seed: seed, feed: feed,
            time: time)
    }
}
