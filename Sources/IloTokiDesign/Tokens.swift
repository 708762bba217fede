/// The design tokens of «sitelen», in device-independent points (dp). Every front end takes
/// its measures from here.
public enum Tokens {
    /// The ink outline on everything.
    public static let outline = 2.0
    /// The hard, blur-free offset shadow (down and to the right).
    public static let shadowOffset = 4.0
    /// Corners are square: «sitelen» is cut paper, not rounded plastic.
    public static let cornerRadius = 0.0
    /// The progress line under the header while a download runs.
    public static let progressLine = 12.0
    /// The round swap knob on the seam between the plates.
    public static let knob = 56.0
    /// The smallest touch target.
    public static let touchTarget = 48.0

    public enum Spacing {
        public static let hairline = 4.0
        public static let small = 8.0
        public static let medium = 12.0
        public static let large = 16.0
        public static let extraLarge = 24.0
    }

    public enum TypeSize {
        /// The app name in the header.
        public static let title = 22.0
        /// Text on the plates.
        public static let plate = 22.0
        /// Buttons, the slab, list rows.
        public static let body = 17.0
        /// Labels, figures, hints.
        public static let small = 14.0
        /// sitelen pona glyphs are drawn larger to read as well as Latin text.
        public static let sitelenPona = 30.0
    }

    public enum Font {
        /// UI and translated text (SIL Open Font License).
        public static let ui = "Space Grotesk"
        /// The sitelen pona ligature font that comes with the app (sitelen seli kiwen asuki,
        /// SIL Open Font License); a family the user names and has installed wins.
        public static let sitelenPona = "sitelen seli kiwen asuki"
        /// OpenType features that turn plain Latin Toki Pona into sitelen pona glyphs.
        public static let sitelenPonaFeatures = ["liga", "calt"]
    }

    /// The phone-shaped default window, and the narrowest layout supported.
    public enum Window {
        public static let defaultWidth = 420.0
        public static let defaultHeight = 820.0
        public static let minimumWidth = 360.0
        /// From this width the plates stand side by side (desktop).
        public static let wideLayout = 760.0
    }
}
