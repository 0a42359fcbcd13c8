import RefreshKit
import RefreshWire
import Testing

/// `measure` (page → server) and `heights` (server → page), docs/PROTOCOL.md "measure, heights".
@Suite struct MeasureWireTests {
    @Test func aMeasureDecodesToItsInputAndSeq() throws {
        let message = try decode(#"{"type":"measure","seq":12,"width":390,"rows":[["42",88.5],["41",72]]}"#)
        let rows = [RowMeasurement(id: "42", height: 88.5), RowMeasurement(id: "41", height: 72)]
        #expect(message == .input(.measure(MeasureInput(width: 390, rows: rows)), seq: 12))
        let empty = try decode(#"{"type":"measure","width":390,"rows":[]}"#)
        #expect(empty == .input(.measure(MeasureInput(width: 390, rows: [])), seq: nil))
    }

    @Test(arguments: [
        (#"{"type":"measure","rows":[]}"#, ErrorCode.missingField, "measure.width is required"),
        (#"{"type":"measure","width":390}"#, .missingField, "measure.rows is required"),
        (#"{"type":"measure","width":0,"rows":[]}"#, .outOfRange, "measure.width must be above 0 and at most 100000"),
        (#"{"type":"measure","width":390,"rows":{}}"#, .badField, "measure.rows must be an array"),
        (#"{"type":"measure","width":390,"rows":[["1",2],3]}"#, .badField, "measure.rows[1] must be [id, height]"),
        (#"{"type":"measure","width":390,"rows":[["1"]]}"#, .badField, "measure.rows[0] must be [id, height]"),
        (#"{"type":"measure","width":390,"rows":[[1,2]]}"#, .badField, "measure.rows[0][0] must be a string"),
        (
            #"{"type":"measure","width":390,"rows":[["",2]]}"#, .badField,
            "measure.rows[0][0] must be a row id (a non-empty string)"
        ),
        (
            #"{"type":"measure","width":390,"rows":[["1","2"]]}"#, .badField,
            "measure.rows[0][1] must be a finite number"
        ),
    ])
    func badMeasuresNameThePlace(text: String, code: ErrorCode, message: String) {
        expectError(text, code, message: message, ref: "measure")
    }

    @Test func aBadMeasureCarriesItsSeqAndTooManyRowsAreRefused() {
        let error = decodingError(#"{"type":"measure","seq":5,"width":390}"#)
        #expect(error?.seq == 5)
        let rows = (0...MessageDecoder.maxMeasuredRows).map { #"["\#($0)",10]"# }.joined(separator: ",")
        expectError(
            #"{"type":"measure","width":390,"rows":[\#(rows)]}"#, .outOfRange,
            message: "measure.rows must hold at most 256 rows", ref: "measure")
    }

    @Test func heightsAreWrittenExactly() throws {
        let rows = [RowMeasurement(id: "4\"2", height: 88.5), RowMeasurement(id: "41", height: 0.1 + 0.2)]
        let text = encoded { $0.encode(.heights(rows), into: &$1) }
        #expect(text == #"{"type":"heights","rows":[["4\"2",88.5],["41",0.30000000000000004]]}"#)
        let object = try foundationObject { $0.encodeHeights([], into: &$1) }
        #expect(object["type"] as? String == "heights")
        #expect(ServerMessage.heights([]).kind.rawValue == "heights")
    }
}
