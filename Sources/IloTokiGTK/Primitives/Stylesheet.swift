import IloTokiDesign

/// The one CSS provider of the app, generated from the design tokens: bone paper, 2 dp ink
/// outlines, hard offset shadows, and jelo only where the `.jelo` class puts it.
enum Stylesheet {
    static func css(palette: Palette, sitelenPonaFont: String) -> String {
        let paper = palette.paper.hex
        let ink = palette.ink.hex
        let jelo = palette.jelo.hex
        let onJelo = palette.onJelo.hex
        let quiet = palette.quiet.hex
        let outline = Int(Tokens.outline)
        let shadow = Int(Tokens.shadowOffset)
        let ui = Tokens.Font.ui
        let features = Tokens.Font.sitelenPonaFeatures.map { "\"\($0)\" 1" }.joined(separator: ", ")
        return """
            window.ilotoki, window.ilotoki.background, .ilotoki-page {
              background-color: \(paper); color: \(ink);
              font-family: "\(ui)", sans-serif; font-size: \(Int(Tokens.TypeSize.body))px;
            }
            .ilotoki label { color: inherit; }
            .ilotoki selection { background-color: \(ink); color: \(paper); }

            /* Everything that stands on the paper: outline and hard shadow, square corners. */
            .plate, .slab, .knob, .pill, .icon-button, .row-button, .card, .ilotoki dropdown > button, .ilotoki entry {
              border: \(outline)px solid \(ink); border-radius: \(Int(Tokens.cornerRadius))px;
              box-shadow: \(shadow)px \(shadow)px 0 0 \(ink);
              background-image: none; background-color: \(paper); color: \(ink);
              text-shadow: none; outline: none;
            }
            .plate { padding: \(Int(Tokens.Spacing.medium))px; }
            .plate textview, .plate textview text { background-color: transparent; color: inherit; }
            .plate-text { font-size: \(Int(Tokens.TypeSize.plate))px; }
            .sitelen { font-family: "\(sitelenPonaFont)"; font-feature-settings: \(features); font-size: \(Int(Tokens.TypeSize.sitelenPona))px; }
            .plate.word-card { background-color: \(paper); }
            .sitelen.word-glyph { font-size: \(Int(Tokens.TypeSize.sitelenPona * 2))px; }
            .language { font-weight: bold; font-size: \(Int(Tokens.TypeSize.small))px; letter-spacing: 1px; }


            .slab {
              min-height: 56px; font-weight: bold; font-size: \(Int(Tokens.TypeSize.body) + 1)px;
              background-color: \(ink); color: \(paper); box-shadow: \(shadow)px \(shadow)px 0 0 \(quiet);
            }
            .slab:active, .knob:active, .pill:active, .icon-button:active, .row-button:active {
              box-shadow: none; margin: \(shadow)px -\(shadow)px -\(shadow)px \(shadow)px;
            }
            .knob { border-radius: 999px; min-width: \(Int(Tokens.knob))px; min-height: \(Int(Tokens.knob))px; padding: 0; }
            .pill { border-radius: 999px; padding: 2px 12px; min-height: 28px; font-size: \(Int(Tokens.TypeSize.small))px; box-shadow: 2px 2px 0 0 \(ink); }
            .icon-button { min-width: \(Int(Tokens.touchTarget))px; min-height: \(Int(Tokens.touchTarget))px; padding: 0; }
            .icon-button.flat { border-color: transparent; box-shadow: none; background-color: transparent; }
            .row-button { padding: 4px 14px; min-height: 36px; }
            .row-button.chosen { background-color: \(ink); color: \(paper); }

            .header { padding: \(Int(Tokens.Spacing.small))px \(Int(Tokens.Spacing.medium))px; }
            .title { font-size: \(Int(Tokens.TypeSize.title))px; font-weight: bold; }
            .quiet { color: \(quiet); font-size: \(Int(Tokens.TypeSize.small))px; }
            .dot { min-width: 10px; min-height: 10px; border-radius: 999px; background-color: \(ink); }

            progressbar.progress-line > trough {
              min-height: \(Int(Tokens.progressLine))px; border: \(outline)px solid \(ink); border-radius: 0;
              background-color: \(paper); background-image: none; box-shadow: none;
            }
            progressbar.progress-line > trough > progress {
              min-height: \(Int(Tokens.progressLine))px; border-radius: 0; background-color: \(ink); background-image: none; border: none;
            }

            progressbar.translation-bar > trough {
              min-height: 4px; border: none; border-radius: 0; background-color: transparent; background-image: none; box-shadow: none;
            }
            progressbar.translation-bar > trough > progress {
              min-height: 4px; border-radius: 0; background-color: \(ink); background-image: none; border: none;
            }

            .card { padding: \(Int(Tokens.Spacing.medium))px; margin: 0 \(Int(Tokens.Spacing.medium))px \(Int(Tokens.Spacing.medium))px \(Int(Tokens.Spacing.medium))px; }
            .ilotoki switch { border: \(outline)px solid \(ink); border-radius: 999px; background-color: \(paper); background-image: none; box-shadow: none; }
            .ilotoki switch:checked { background-color: \(ink); }
            .ilotoki switch slider { border: \(outline)px solid \(ink); background-color: \(paper); background-image: none; box-shadow: none; min-width: 20px; min-height: 20px; }
            .ilotoki scrolledwindow, .ilotoki viewport, .ilotoki list, .ilotoki row { background-color: transparent; }
            .ilotoki popover contents { background-color: \(paper); color: \(ink); border: \(outline)px solid \(ink); border-radius: 0; }

            /* The one saturated colour: the target of the translation, or the active choice. */
            .jelo, .plate.jelo, .icon-button.jelo, .icon-button.flat.jelo {
              background-color: \(jelo); color: \(onJelo); border-color: \(ink);
            }
            .icon-button.flat.jelo { box-shadow: \(shadow)px \(shadow)px 0 0 \(ink); }
            """
    }
}
