import IloTokiCore
import IloTokiDesign
import SwiftUI

/// The «sitelen» look from `IloTokiDesign`: colours, the 2 pt outline, the hard offset shadow,
/// the two fonts.
extension Color {
    init(_ color: DesignColor) {
        let (red, green, blue) = color.components
        self.init(.sRGB, red: red, green: green, blue: blue, opacity: 1)
    }
}

extension Palette {
    /// The palette of the look Core resolved (`MainScreen.appearance`).
    static func forAppearance(_ appearance: Appearance) -> Palette { appearance == .dark ? .dark : .light }
}

extension ColorScheme {
    /// The scheme to ask the system for: `nil` while the theme follows the system.
    static func forScreen(_ screen: MainScreen) -> ColorScheme? {
        screen.theme == .system ? nil : (screen.appearance == .dark ? .dark : .light)
    }
}

/// The palette every view draws with, set once at the root from Core's resolved look.
private struct PaletteKey: EnvironmentKey {
    static let defaultValue = Palette.light
}

extension EnvironmentValues {
    var palette: Palette {
        get { self[PaletteKey.self] }
        set { self[PaletteKey.self] = newValue }
    }
}

extension Font {
    /// Space Grotesk at a token size, growing with Dynamic Type.
    static func ui(_ size: Double, relativeTo style: Font.TextStyle = .body) -> Font {
        .custom(Tokens.Font.ui, size: size, relativeTo: style)
    }

    /// The sitelen pona font: the view writes plain Latin and the font's ligatures (on by
    /// default in Core Text) draw the glyphs.
    static func sitelenPona(family: String) -> Font {
        .custom(family, size: Tokens.TypeSize.sitelenPona, relativeTo: .title)
    }
}

/// Paper, the ink outline and the hard shadow: every card, plate and button of the app.
struct Cut: ViewModifier {
    var fill: Color
    /// The shadow's colour: ink, or `quiet` under an ink surface (the slab).
    var shadow: Color?
    @Environment(\.palette) private var palette

    func body(content: Content) -> some View {
        let ink = Color(palette.ink)
        content
            .background(fill)
            .overlay(Rectangle().strokeBorder(ink, lineWidth: Tokens.outline))
            .background((shadow ?? ink).offset(x: Tokens.shadowOffset, y: Tokens.shadowOffset))
    }
}

extension View {
    func cut(_ fill: Color, shadow: Color? = nil) -> some View { modifier(Cut(fill: fill, shadow: shadow)) }
}

/// An icon of `IloTokiDesign` drawn with `Path`: the same rectangles, triangles and circles
/// the GTK app draws with Cairo.
struct IconShapeView: Shape {
    let icon: Icon

    func path(in rect: CGRect) -> Path {
        let scale = min(rect.width, rect.height) / Icon.gridSize
        let origin = CGPoint(x: rect.midX - Icon.gridSize * scale / 2, y: rect.midY - Icon.gridSize * scale / 2)
        func point(_ x: Double, _ y: Double) -> CGPoint { CGPoint(x: origin.x + x * scale, y: origin.y + y * scale) }
        var path = Path()
        for shape in icon.shapes {
            switch shape {
            case .rectangle(let x, let y, let width, let height, let rotation):
                let box = Path(CGRect(x: 0, y: 0, width: width * scale, height: height * scale))
                let centre = point(x + width / 2, y + height / 2)
                let transform = CGAffineTransform(translationX: centre.x, y: centre.y)
                    .rotated(by: rotation * .pi / 180)
                    .translatedBy(x: -width * scale / 2, y: -height * scale / 2)
                path.addPath(box, transform: transform)
            case .frame(let x, let y, let width, let height, let lineWidth):
                let inner = lineWidth * scale
                let outer = CGRect(origin: point(x, y), size: CGSize(width: width * scale, height: height * scale))
                path.addPath(Path(outer).subtracting(Path(outer.insetBy(dx: inner, dy: inner))))
            case .triangle(let a, let b, let c):
                path.move(to: point(a.x, a.y))
                path.addLine(to: point(b.x, b.y))
                path.addLine(to: point(c.x, c.y))
                path.closeSubpath()
            case .circle(let x, let y, let radius):
                path.addEllipse(
                    in: CGRect(origin: point(x - radius, y - radius), size: CGSize(width: 2 * radius * scale, height: 2 * radius * scale)))
            case .ring(let x, let y, let radius, let lineWidth):
                let outer = radius + lineWidth / 2
                let inner = radius - lineWidth / 2
                let disc = Path(
                    ellipseIn: CGRect(
                        origin: point(x - outer, y - outer), size: CGSize(width: 2 * outer * scale, height: 2 * outer * scale)))
                let hole = Path(
                    ellipseIn: CGRect(
                        origin: point(x - inner, y - inner), size: CGSize(width: 2 * inner * scale, height: 2 * inner * scale)))
                path.addPath(disc.subtracting(hole))
            }
        }
        return path
    }
}

/// A square icon button at least a touch target wide, with its label for VoiceOver.
struct IconButton: View {
    let icon: IconName
    let label: String
    let action: @MainActor () -> Void
    @Environment(\.palette) private var palette

    var body: some View {
        Button(action: action) {
            IconShapeView(icon: .named(icon))
                .fill(Color(palette.ink))
                .frame(width: 22, height: 22)
                .frame(minWidth: Tokens.touchTarget, minHeight: Tokens.touchTarget)
                .contentShape(Rectangle())
        }
        .buttonStyle(.plain)
        .accessibilityLabel(label)
    }
}
