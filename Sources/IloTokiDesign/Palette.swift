/// A colour of the «sitelen» look, as 8-bit sRGB.
public struct DesignColor: Equatable, Hashable, Sendable {
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8

    public init(hex: UInt32) {
        red = UInt8((hex >> 16) & 0xFF)
        green = UInt8((hex >> 8) & 0xFF)
        blue = UInt8(hex & 0xFF)
    }

    /// `#F3EDE2`.
    public var hex: String {
        "#"
            + [red, green, blue].map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
    }

    /// 0…1 components, for Cairo and Core Graphics.
    public var components: (red: Double, green: Double, blue: Double) {
        (Double(red) / 255, Double(green) / 255, Double(blue) / 255)
    }
}

/// The colours of one theme. There is exactly one saturated colour, jelo, and it means one
/// thing at a time: the target of the translation, or the active choice.
public struct Palette: Equatable, Sendable {
    /// The background of everything.
    public let paper: DesignColor
    /// Text, outlines and hard shadows.
    public let ink: DesignColor
    /// The one saturated colour.
    public let jelo: DesignColor
    /// Text on jelo (jelo is light in both themes).
    public let onJelo: DesignColor
    /// Secondary text: hints, figures.
    public let quiet: DesignColor

    public static let bone = DesignColor(hex: 0xF3EDE2)
    public static let inkBlack = DesignColor(hex: 0x1B1B1B)
    public static let jeloYellow = DesignColor(hex: 0xFFD400)

    /// Bone paper, ink lines.
    public static let light = Palette(
        paper: bone, ink: inkBlack, jelo: jeloYellow, onJelo: inkBlack, quiet: DesignColor(hex: 0x6B655C))
    /// Ink paper, bone lines, the same jelo.
    public static let dark = Palette(
        paper: inkBlack, ink: bone, jelo: jeloYellow, onJelo: inkBlack, quiet: DesignColor(hex: 0xA39D92))
}
