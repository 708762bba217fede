import IloTokiCore
import IloTokiDesign
import SwiftUI

/// The main screen and the way to the other places. Every value it shows comes from Core
/// (`MainScreen`: the places in their order, titles and icons; the plates; the slab; the
/// look); every action goes to the model through `perform`, which also does what an
/// action's outcome asks of this front end.
struct RootView: View {
    let model: TranslatorModel
    let strings: UIStrings
    @State private var path: [Place] = []
    @State private var licence: LicenceOffer?
    /// Why the last action could not be done, shown in an alert until dismissed.
    @State private var failure = ""
    @State private var showsFailure = false
    /// Presses, counted for the light tap each one gets while haptics are on.
    @State private var presses = 0
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let screen = MainScreen(model: model, strings: strings, systemPrefersDark: scheme == .dark)
        NavigationStack(path: $path) {
            MainView(model: model, screen: screen, strings: strings, perform: perform)
                .toolbar {
                    ToolbarItemGroup(placement: .primaryAction) {
                        ForEach(screen.header.places, id: \.place) { link in
                            IconButton(icon: link.icon, label: link.title) { path.append(link.place) }
                        }
                    }
                }
                .navigationDestination(for: Place.self) { place in
                    PlaceView(
                        place: place, title: screen.header.places.first { $0.place == place }?.title ?? "", model: model,
                        strings: strings, perform: perform)
                }
        }
        .sheet(item: $licence) { offer in
            LicenceSheet(offer: offer, strings: strings) { accepted in
                licence = nil
                guard accepted else { return }
                perform(.acceptLicenceAndDownload(id: offer.entry.id))
            }
        }
        .alert(failure, isPresented: $showsFailure) {
            Button(strings[.cancel], role: .cancel) { showsFailure = false }
        }
        .environment(\.palette, Palette.forAppearance(screen.appearance))
        .preferredColorScheme(ColorScheme.forScreen(screen))
        .haptics(screen.haptics, presses: presses)
    }

    /// Performs an action and does what its outcome asks: the licence sheet, the clipboard,
    /// the reason it could not be done, the main screen.
    private func perform(_ action: Action) {
        // Typing is not a press.
        if model.settings.haptics, action.kind != .setSourceText { presses += 1 }
        switch model.perform(action) {
        case .done, .added: break
        case .showLicence(let offer): licence = offer
        case .copy(let text): Platform.copyToClipboard(text)
        case .share: break  // the share button is a ShareLink of the plate's text (PlateView)
        case .failed(let reason):
            failure = reason
            showsFailure = true
        case .showMain: path.removeAll()
        }
    }
}

extension VerticalAlignment {
    /// The seam between the stacked plates, where the knob sits.
    private enum Seam: AlignmentID {
        static func defaultValue(in dimensions: ViewDimensions) -> CGFloat { dimensions[.bottom] }
    }

    static let seam = VerticalAlignment(Seam.self)
}

/// Header, download line, the two plates with the knob on their seam, the notice, the slab.
struct MainView: View {
    let model: TranslatorModel
    let screen: MainScreen
    let strings: UIStrings
    let perform: @MainActor (Action) -> Void
    @Environment(\.palette) private var palette

    var body: some View {
        VStack(spacing: 0) {
            HeaderView(header: screen.header) { perform(.toggleDownload) }
            // Under the header, the width of the screen: it names a model, which the header has no room for.
            if let standIn = screen.header.standIn {
                Text(standIn).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
                    .frame(maxWidth: .infinity, alignment: .leading).padding(.horizontal, Tokens.Spacing.medium)
            }
            if let download = screen.header.download {
                ProgressLine(fraction: download.fraction)
            }
            ScrollView {
                VStack(spacing: Tokens.Spacing.large) {
                    plates
                    if let hint = screen.hint {
                        HStack(spacing: Tokens.Spacing.medium) {
                            Text(hint.text)
                                .font(.ui(Tokens.TypeSize.small, relativeTo: .footnote))
                                .foregroundStyle(Color(palette.quiet))
                                .frame(maxWidth: .infinity, alignment: .leading)
                            RowButton(title: hint.dismissTitle) { perform(.dismissFirstRunHint) }
                        }
                    }
                    if let card = screen.word {
                        WordCardView(
                            card: card, sitelenPonaFamily: model.settings.sitelenPonaFamily(isInstalled: model.isFontInstalled),
                            perform: perform)
                    }
                    if let notice = screen.notice {
                        Text(notice)
                            .font(.ui(Tokens.TypeSize.small, relativeTo: .footnote))
                            .foregroundStyle(Color(palette.quiet))
                            .frame(maxWidth: .infinity, alignment: .leading)
                    }
                }
                .padding(Tokens.Spacing.large)
            }
            SlabView(slab: screen.slab) { perform(.pressSlab) }
                .padding(Tokens.Spacing.large)
        }
        .background(Color(palette.paper))
        .foregroundStyle(Color(palette.ink))
    }

    /// Side by side from the wide layout on (iPad, Mac), one above the other below it; the
    /// knob sits on the seam either way.
    private var plates: some View {
        ViewThatFits(in: .horizontal) {
            ZStack(alignment: .top) {
                HStack(alignment: .top, spacing: Tokens.Spacing.extraLarge) {
                    sourcePlate
                    targetPlate
                }
                knob.padding(.top, Tokens.Spacing.extraLarge * 2)
            }
            .frame(minWidth: Tokens.Window.wideLayout)
            ZStack(alignment: Alignment(horizontal: .center, vertical: .seam)) {
                VStack(spacing: Tokens.Spacing.extraLarge) {
                    sourcePlate.alignmentGuide(.seam) { $0[.bottom] + Tokens.Spacing.extraLarge / 2 }
                    targetPlate
                }
                knob.alignmentGuide(.seam) { $0[VerticalAlignment.center] }
            }
        }
    }

    private var sourcePlate: some View {
        PlateView(plate: screen.source, isTarget: false, model: model, screen: screen, strings: strings, perform: perform)
    }

    private var targetPlate: some View {
        PlateView(plate: screen.target, isTarget: true, model: model, screen: screen, strings: strings, perform: perform)
    }

    private var knob: some View {
        SwapKnob(label: screen.swapLabel) { perform(.swap) }
    }
}

struct HeaderView: View {
    let header: MainScreen.Header
    let toggleDownload: @MainActor () -> Void
    @Environment(\.palette) private var palette

    var body: some View {
        HStack(spacing: Tokens.Spacing.small) {
            VStack(alignment: .leading, spacing: 2) {
                Text(header.title).font(.ui(Tokens.TypeSize.title, relativeTo: .title2)).bold()
                HStack(spacing: Tokens.Spacing.hairline) {
                    Text(header.modelLine).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
                    if header.showsNewerModelDot {
                        Circle().fill(Color(palette.ink)).frame(width: 10, height: 10)
                            .accessibilityLabel(header.newerModelLabel)
                    }
                }

            }
            Spacer()
            if let download = header.download {
                IconButton(icon: download.icon, label: download.label, action: toggleDownload)
            }
        }
        .padding(.horizontal, Tokens.Spacing.large)
        .padding(.vertical, Tokens.Spacing.small)
    }
}

/// The 12 dp line under the header while a download runs.
struct ProgressLine: View {
    let fraction: Double
    @Environment(\.palette) private var palette

    var body: some View {
        GeometryReader { geometry in
            Rectangle().fill(Color(palette.ink))
                .frame(width: geometry.size.width * min(max(fraction, 0), 1))
        }
        .frame(height: Tokens.progressLine)
        .background(Color(palette.paper))
        .overlay(Rectangle().strokeBorder(Color(palette.ink), lineWidth: Tokens.outline))
        .accessibilityElement()
        .accessibilityValue(Text("\(Int(fraction * 100))%"))
    }
}

/// The round knob on the seam between the plates.
struct SwapKnob: View {
    let label: String
    let action: @MainActor () -> Void
    @Environment(\.palette) private var palette

    var body: some View {
        Button(action: action) {
            IconShapeView(icon: .named(.swap)).fill(Color(palette.ink)).frame(width: 24, height: 24)
                .frame(width: Tokens.knob, height: Tokens.knob)
                .background(Circle().fill(Color(palette.paper)))
                .overlay(Circle().strokeBorder(Color(palette.ink), lineWidth: Tokens.outline))
                .background(Circle().fill(Color(palette.ink)).offset(x: Tokens.shadowOffset, y: Tokens.shadowOffset))
        }
        .buttonStyle(.plain)
        .accessibilityLabel(label)
    }
}

/// The primary action at the foot: ink, with paper letters (jelo belongs to the target plate).
struct SlabView: View {
    let slab: MainScreen.Slab
    let action: @MainActor () -> Void
    @Environment(\.palette) private var palette

    var body: some View {
        Button(action: action) {
            HStack(spacing: Tokens.Spacing.small) {
                Text(slab.title).font(.ui(Tokens.TypeSize.body, relativeTo: .headline)).bold()
                Spacer()
                IconShapeView(icon: .named(slab.icon)).fill(Color(palette.paper)).frame(width: 20, height: 20)
            }
            .foregroundStyle(Color(palette.paper))
            .padding(Tokens.Spacing.large)
            .frame(maxWidth: .infinity, minHeight: 56)
            .cut(Color(palette.ink), shadow: Color(palette.quiet))
            .opacity(slab.isEnabled ? 1 : 0.5)
        }
        .buttonStyle(.plain)
        .disabled(!slab.isEnabled)
        .accessibilityLabel(slab.title)
    }
}

extension View {
    /// The phones' haptics, while Core says they are on: a light tap for each press, a selection
    /// tick each time words land (Core ticks at most once per 60 ms). None on a Mac.
    func haptics(_ haptics: MainScreen.Haptics?, presses: Int) -> some View {
        #if canImport(UIKit)
            sensoryFeedback(.impact(weight: .light), trigger: presses)
                .sensoryFeedback(.selection, trigger: haptics?.wordTicks ?? 0)
        #else
            self
        #endif
    }
}
