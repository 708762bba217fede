import Foundation

/// A point on the 100 × 100 icon grid.
public struct GridPoint: Equatable, Hashable, Sendable {
    public let x: Double
    public let y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// One shape of an icon: icons are drawn from rectangles, triangles and circles only, so every
/// front end (Cairo, SwiftUI `Path`, SVG) draws exactly the same thing.
public enum IconShape: Equatable, Sendable {
    /// A filled rectangle, turned by `rotation` degrees about its centre.
    case rectangle(x: Double, y: Double, width: Double, height: Double, rotation: Double = 0)
    /// The outline of a rectangle, `lineWidth` wide, inside its bounds.
    case frame(x: Double, y: Double, width: Double, height: Double, lineWidth: Double)
    /// A filled triangle.
    case triangle(GridPoint, GridPoint, GridPoint)
    /// A filled circle.
    case circle(centerX: Double, centerY: Double, radius: Double)
    /// The outline of a circle, `lineWidth` wide, centred on the radius.
    case ring(centerX: Double, centerY: Double, radius: Double, lineWidth: Double)

    /// The points that bound the shape (corners, or the circle's extremes).
    public var extremes: [GridPoint] {
        switch self {
        case .rectangle(let x, let y, let width, let height, let rotation):
            let centre = GridPoint(x + width / 2, y + height / 2)
            let angle = rotation * .pi / 180
            return [GridPoint(x, y), GridPoint(x + width, y), GridPoint(x + width, y + height), GridPoint(x, y + height)].map { corner in
                let dx = corner.x - centre.x
                let dy = corner.y - centre.y
                return GridPoint(centre.x + dx * cos(angle) - dy * sin(angle), centre.y + dx * sin(angle) + dy * cos(angle))
            }
        case .frame(let x, let y, let width, let height, _):
            return [GridPoint(x, y), GridPoint(x + width, y + height)]
        case .triangle(let a, let b, let c):
            return [a, b, c]
        case .circle(let x, let y, let r):
            return [GridPoint(x - r, y - r), GridPoint(x + r, y + r)]
        case .ring(let x, let y, let r, let width):
            return [GridPoint(x - r - width / 2, y - r - width / 2), GridPoint(x + r + width / 2, y + r + width / 2)]
        }
    }
}

/// The icons of the app.
public enum IconName: String, CaseIterable, Codable, Sendable {
    case swap, translate, download, pause, history, settings, models, about, copy, share, olin, script, close
}

/// An icon: shapes on a 100 × 100 grid, drawn in ink.
public struct Icon: Equatable, Sendable {
    public static let gridSize = 100.0

    public let name: IconName
    public let shapes: [IconShape]

    public init(name: IconName, shapes: [IconShape]) {
        self.name = name
        self.shapes = shapes
    }

    /// Whether every shape lies on the grid.
    public var staysOnGrid: Bool {
        shapes.flatMap(\.extremes).allSatisfy { (0...Icon.gridSize).contains($0.x) && (0...Icon.gridSize).contains($0.y) }
    }

    public static func named(_ name: IconName) -> Icon { Icon(name: name, shapes: IconLibrary.shapes(name)) }

    public static var all: [Icon] { IconName.allCases.map(named) }
}

/// The shapes of every icon. Coordinates are on the 100 × 100 grid, y pointing down.
enum IconLibrary {
    static func shapes(_ name: IconName) -> [IconShape] {
        switch name {
        case .swap:
            // Up on the left, down on the right.
            [
                .rectangle(x: 20, y: 30, width: 14, height: 60), .triangle(GridPoint(6, 36), GridPoint(27, 8), GridPoint(48, 36)),
                .rectangle(x: 66, y: 10, width: 14, height: 60), .triangle(GridPoint(52, 64), GridPoint(73, 92), GridPoint(94, 64)),
            ]
        case .translate:
            [.rectangle(x: 8, y: 42, width: 52, height: 16), .triangle(GridPoint(54, 18), GridPoint(92, 50), GridPoint(54, 82))]
        case .download:
            [
                .rectangle(x: 42, y: 6, width: 16, height: 44), .triangle(GridPoint(20, 44), GridPoint(50, 76), GridPoint(80, 44)),
                .rectangle(x: 12, y: 84, width: 76, height: 10),
            ]
        case .pause:
            [.rectangle(x: 22, y: 14, width: 20, height: 72), .rectangle(x: 58, y: 14, width: 20, height: 72)]
        case .history:
            [
                .ring(centerX: 50, centerY: 50, radius: 38, lineWidth: 9), .rectangle(x: 45, y: 24, width: 10, height: 31),
                .rectangle(x: 45, y: 45, width: 26, height: 10),
            ]
        case .settings:
            [
                .ring(centerX: 50, centerY: 50, radius: 22, lineWidth: 12),
                .rectangle(x: 43, y: 6, width: 14, height: 18), .rectangle(x: 43, y: 76, width: 14, height: 18),
                .rectangle(x: 6, y: 43, width: 18, height: 14), .rectangle(x: 76, y: 43, width: 18, height: 14),
                .rectangle(x: 65, y: 19, width: 14, height: 18, rotation: 45),
                .rectangle(x: 21, y: 63, width: 14, height: 18, rotation: 45),
                .rectangle(x: 21, y: 19, width: 14, height: 18, rotation: -45),
                .rectangle(x: 65, y: 63, width: 14, height: 18, rotation: -45),
            ]
        case .models:
            [
                .rectangle(x: 12, y: 10, width: 76, height: 22), .rectangle(x: 12, y: 39, width: 76, height: 22),
                .rectangle(x: 12, y: 68, width: 76, height: 22),
            ]
        case .about:
            [
                .ring(centerX: 50, centerY: 50, radius: 40, lineWidth: 8), .circle(centerX: 50, centerY: 29, radius: 7),
                .rectangle(x: 44, y: 42, width: 12, height: 34),
            ]
        case .copy:
            [.frame(x: 8, y: 30, width: 52, height: 62, lineWidth: 9), .rectangle(x: 40, y: 8, width: 52, height: 62)]
        case .share:
            // An arrow rising out of a tray.
            [
                .rectangle(x: 44, y: 26, width: 12, height: 44),
                .triangle(GridPoint(24, 34), GridPoint(76, 34), GridPoint(50, 6)),
                .rectangle(x: 10, y: 52, width: 10, height: 40), .rectangle(x: 80, y: 52, width: 10, height: 40),
                .rectangle(x: 10, y: 82, width: 80, height: 10),
            ]
        case .olin:
            // A heart, as sitelen pona writes olin.
            [
                .circle(centerX: 32, centerY: 36, radius: 22), .circle(centerX: 68, centerY: 36, radius: 22),
                .triangle(GridPoint(11, 43), GridPoint(89, 43), GridPoint(50, 92)),
            ]
        case .script:
            // Latin (a letter A) and sitelen pona (a round glyph).
            [
                .triangle(GridPoint(6, 88), GridPoint(30, 12), GridPoint(54, 88)),
                .ring(centerX: 74, centerY: 66, radius: 15, lineWidth: 9),
            ]
        case .close:
            [.rectangle(x: 43, y: 4, width: 14, height: 92, rotation: 45), .rectangle(x: 43, y: 4, width: 14, height: 92, rotation: -45)]
        }
    }
}
