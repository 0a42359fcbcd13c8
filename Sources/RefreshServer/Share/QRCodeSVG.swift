extension QRCode {
    /// The symbol as an SVG image: one path of unit squares for the dark modules on a white square that includes
    /// the 4-module quiet zone (ISO/IEC 18004), scaled by the viewer (`viewBox` in modules, crisp edges), so that a
    /// phone's camera reads it off any screen. Only numbers and fixed text: nothing of the encoded text appears in it.
    public var svg: String {
        let zone = TerminalQRCode.quietZone
        let side = size + 2 * zone
        var path = ""
        path.reserveCapacity(size * size * 4)
        for row in 0..<size {
            var column = 0
            while column < size {
                guard isDark(row: row, column: column) else {
                    column += 1
                    continue
                }
                // a run of dark modules in this row is one rectangle
                var end = column + 1
                while end < size && isDark(row: row, column: end) { end += 1 }
                path += "M\(column + zone) \(row + zone)h\(end - column)v1h-\(end - column)z"
                column = end
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>

            """
    }
}
