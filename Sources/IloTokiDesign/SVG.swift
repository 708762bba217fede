import Foundation

extension IconShape {
    /// The shape as an SVG element, in `color`.
    public func svgElement(color: String, background: String) -> String {
        func n(_ value: Double) -> String {
            value.rounded() == value ? String(Int(value)) : String(format: "%.2f", value)
        }
        switch self {
        case .rectangle(let x, let y, let width, let height, let rotation):
            let turn = rotation == 0 ? "" : " transform=\"rotate(\(n(rotation)) \(n(x + width / 2)) \(n(y + height / 2)))\""
            return "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"\(color)\"\(turn)/>"
        case .frame(let x, let y, let width, let height, let lineWidth):
            let inset = lineWidth / 2
            return
                "<rect x=\"\(n(x + inset))\" y=\"\(n(y + inset))\" width=\"\(n(width - lineWidth))\" height=\"\(n(height - lineWidth))\" "
                + "fill=\"\(background)\" stroke=\"\(color)\" stroke-width=\"\(n(lineWidth))\"/>"
        case .triangle(let a, let b, let c):
            return "<polygon points=\"\(n(a.x)),\(n(a.y)) \(n(b.x)),\(n(b.y)) \(n(c.x)),\(n(c.y))\" fill=\"\(color)\"/>"
        case .circle(let x, let y, let r):
            return "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(r))\" fill=\"\(color)\"/>"
        case .ring(let x, let y, let r, let lineWidth):
            return
                "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(r))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(n(lineWidth))\"/>"
        }
    }
}

extension Icon {
    /// The icon as a standalone SVG document.
    public func svg(size: Int = 100, palette: Palette = .light) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" viewBox="0 0 100 100">
        <title>\(name.rawValue)</title>
        \(shapes.map { $0.svgElement(color: palette.ink.hex, background: palette.paper.hex) }.joined(separator: "\n"))
        </svg>

        """
    }

    /// Every icon on one sheet, labelled, on bone paper: docs/icons.svg.
    public static func sheet(palette: Palette = .light) -> String {
        let columns = 4
        let cell = 160
        let rows = (all.count + columns - 1) / columns
        var body = ""
        for (index, icon) in all.enumerated() {
            let x = (index % columns) * cell + 30
            let y = (index / columns) * cell + 20
            body += "<g transform=\"translate(\(x) \(y))\">\n"
            body += icon.shapes.map { $0.svgElement(color: palette.ink.hex, background: palette.paper.hex) }.joined(separator: "\n") + "\n"
            body +=
                "<text x=\"50\" y=\"124\" text-anchor=\"middle\" font-family=\"Space Grotesk, sans-serif\" font-size=\"16\" fill=\"\(palette.ink.hex)\">\(icon.name.rawValue)</text>\n"
            body += "</g>\n"
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(columns * cell)" height="\(rows * cell)" viewBox="0 0 \(columns * cell) \(rows * cell)">
            <title>ilo toki icons: rectangles, triangles and circles on a 100 × 100 grid</title>
            <rect width="100%" height="100%" fill="\(palette.paper.hex)"/>
            \(body)</svg>

            """
    }
}

/// The app icon: two plates on bone paper, the lower one jelo (the target), the swap knob
/// on the seam, all with the ink outline and the hard shadow.
public enum AppIcon {
    public static func svg(size: Int = 256) -> String {
        let ink = Palette.light.ink.hex
        let bone = Palette.light.paper.hex
        let jelo = Palette.light.jelo.hex
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" viewBox="0 0 100 100">
            <title>ilo toki</title>
            <rect x="2" y="2" width="96" height="96" fill="\(bone)" stroke="\(ink)" stroke-width="3"/>
            <rect x="17" y="17" width="70" height="30" fill="\(ink)"/>
            <rect x="13" y="13" width="70" height="30" fill="\(bone)" stroke="\(ink)" stroke-width="3"/>
            <rect x="17" y="57" width="70" height="30" fill="\(ink)"/>
            <rect x="13" y="53" width="70" height="30" fill="\(jelo)" stroke="\(ink)" stroke-width="3"/>
            <circle cx="48" cy="48" r="11" fill="\(bone)" stroke="\(ink)" stroke-width="3"/>
            <polygon points="43,47 48,40 53,47" fill="\(ink)"/>
            <polygon points="43,49 48,56 53,49" fill="\(ink)"/>
            </svg>

            """
    }
}
