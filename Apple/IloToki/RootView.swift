import IloTokiCore
import IloTokiDesign
import SwiftUI

/// The places of the app.
enum Place: Hashable {
    case history, models, settings, about
}

/// The main screen and the way to the other places. Every value it shows comes from
/// `MainScreen`; every action goes to the model.
struct RootView: View {
    let model: TranslatorModel
    let strings: UIStrings
    @State private var path: [Place] = []
    @State private var licenceFor: CatalogEntry?

    var body: some View {
        let screen = MainScreen(model: model, strings: strings)
        NavigationStack(path: $path) {
            MainView(model: model, screen: screen, strings: strings, licenceFor: $licenceFor)
                .toolbar {
                    ToolbarItemGroup(placement: .primaryAction) {
                        IconButton(icon: .history, label: strings[.history]) { path.append(.history) }
                        IconButton(icon: .models, label: strings[.models]) { path.append(.models) }
                        IconButton(icon: .settings, label: strings[.settings]) { path.append(.settings) }
                        IconButton(icon: .about, label: strings[.about]) { path.append(.about) }
                    }
                }
                .navigationDestination(for: Place.self) { place in
                    PlaceView(place: place, model: model, strings: strings, licenceFor: $licenceFor)
                }
        }
        .sheet(item: $licenceFor) { entry in
            LicenceSheet(strings: strings) { accepted in
                licenceFor = nil
                if accepted { model.acceptLicenceAndDownload(entry) }
            }
        }
        .preferredColorScheme(ColorScheme.forTheme(model.settings.theme))
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
    @Binding var licenceFor: CatalogEntry?
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let palette = Palette.forScheme(scheme)
        VStack(spacing: 0) {
            HeaderView(header: screen.header) { show(model.toggleDownload()) }
            if let download = screen.header.download {
                ProgressLine(fraction: download.fraction)
            }
            ScrollView {
                VStack(spacing: Tokens.Spacing.large) {
                    plates
                    if let notice = screen.notice {
                        Text(notice)
                            .font(.ui(Tokens.TypeSize.small, relativeTo: .footnote))
                            .foregroundStyle(Color(palette.quiet))
                            .frame(maxWidth: .infinity, alignment: .leading)
                    }
                }
                .padding(Tokens.Spacing.large)
            }
            SlabView(slab: screen.slab) { show(model.pressSlab()) }
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
        PlateView(plate: screen.source, isTarget: false, model: model, strings: strings)
    }

    private var targetPlate: some View {
        PlateView(plate: screen.target, isTarget: true, model: model, strings: strings)
    }

    private var knob: some View {
        SwapKnob(label: strings[.swap]) { model.swap() }
    }

    private func show(_ outcome: ActionOutcome) {
        if case .showLicence(let entry) = outcome { licenceFor = entry }
    }
}

struct HeaderView: View {
    let header: MainScreen.Header
    let toggleDownload: () -> Void
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let palette = Palette.forScheme(scheme)
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
                IconButton(icon: download.isRunning ? .pause : .download, label: download.label, action: toggleDownload)
            }
        }
        .padding(.horizontal, Tokens.Spacing.large)
        .padding(.vertical, Tokens.Spacing.small)
    }
}

/// The 12 dp line under the header while a download runs.
struct ProgressLine: View {
    let fraction: Double
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let palette = Palette.forScheme(scheme)
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
    let action: () -> Void
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let palette = Palette.forScheme(scheme)
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
    let action: () -> Void
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let palette = Palette.forScheme(scheme)
        Button(action: action) {
            HStack(spacing: Tokens.Spacing.small) {
                Text(slab.title).font(.ui(Tokens.TypeSize.body, relativeTo: .headline)).bold()
                Spacer()
                IconShapeView(icon: .named(icon)).fill(Color(palette.paper)).frame(width: 20, height: 20)
            }
            .foregroundStyle(Color(palette.paper))
            .padding(Tokens.Spacing.large)
            .frame(maxWidth: .infinity, minHeight: 56)
            .cut(Color(palette.ink), shadow: Color(palette.quiet))
            .opacity(slab.isEnabled ? 1 : 0.5)
        }
        .buttonStyle(.plain)
        .disabled(!slab.isEnabled)
    }

    private var icon: IconName {
        switch slab.action {
        case .stop: .pause
        case .download, .resumeDownload: .download
        default: .translate
        }
    }
}
