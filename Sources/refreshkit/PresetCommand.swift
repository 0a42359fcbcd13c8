import ArgumentParser
import Foundation
import RefreshKit
import RefreshWire

/// `refreshkit preset`: the preset files of docs/PRESETS.md, written from a seed and checked.
struct PresetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preset",
        abstract: "Write a seed preset as a preset file, check a file, list the presets.",
        discussion: "A preset file sets every edge, the insets, the feed and the physics (docs/PRESETS.md).",
        subcommands: [Show.self, Check.self, List.self]
    )

    /// `preset show NAME`: the seed as a complete file, to start from.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a seed preset as a complete preset file (every field).")

        @Argument(help: "The preset (\(Preset.names.joined(separator: ", "))).")
        var name: String

        func run() throws {
            guard let preset = Preset.named(name) else {
                throw ValidationError("no preset named '\(name)'; known: \(Preset.names.joined(separator: ", "))")
            }
            print(PresetFile.write(preset, base: preset.name), terminator: "")
        }
    }

    /// `preset check FILE`: every problem, or the preset's name.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a preset file: exit 0 when it is good, 1 with every problem listed.")

        @Argument(help: "The preset file (JSON).")
        var file: String

        func run() throws {
            let preset = try PresetFiles.load(file, into: .seeds)
            print("\(file): preset '\(preset.name)' is good")
        }
    }

    /// `preset list`: the seeds, one a line.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the seed presets.")

        func run() {
            for preset in Preset.all {
                print("\(preset.name)\t\(preset.library?.name ?? "")\t\(preset.summary)")
            }
        }
    }
}

/// Reading preset files for the command line: a problem ends the program with every problem listed.
enum PresetFiles {
    /// The preset in `path`, read against `presets` (its `base`).
    static func load(_ path: String, into presets: PresetCatalogue) throws -> Preset {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PresetFileError(path: path, problems: ["cannot read the file"])
        }
        do throws(PresetProblems) {
            return try PresetFile.read([UInt8](data), presets: presets)
        } catch {
            throw PresetFileError(path: path, problems: error.problems)
        }
    }

    /// The seeds and the presets of `paths`, in order (a file's `base` may name a preset of an earlier one).
    static func catalogue(_ paths: [String]) throws -> PresetCatalogue {
        var catalogue = PresetCatalogue.seeds
        for path in paths {
            let preset = try load(path, into: catalogue)
            do throws(PresetProblems) {
                try catalogue.register(preset)
            } catch {
                throw PresetFileError(path: path, problems: error.problems)
            }
        }
        return catalogue
    }
}

/// A preset file refused: its path and every problem, one a line.
struct PresetFileError: Error, CustomStringConvertible {
    var path: String
    var problems: [String]

    var description: String {
        "\(path): the preset file is refused (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n"
            + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
