package org.ilotoki.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;
import org.ilotoki.android.NativeBridge;

/**
 * Drives libIloTokiJNI.so the way the Android app does, on a desktop JVM (run with
 * -Xcheck:jni by scripts/test-jni.sh): a store, translations with the tiny model and Gemma 3
 * 270M streamed through the listener, a stop mid-way, bad input and misuse, two threads at once.
 *
 * Actions cross as the JSON of Core's Action ({"use": {"id": "…"}}), outcomes as the JSON of
 * ActionOutcome: the harness writes them by hand, as a check that the contract is what
 * Contract.kt (the Android app's generated mirror, read here for its list of actions) says.
 *
 * Usage: JniHarness WORK_DIR TINY.gguf GEMMA.gguf CONTRACT.kt
 */
public final class JniHarness {
    static final String[] FONTS = {"Space Grotesk", "sitelen seli kiwen asuki"};
    static int checks = 0;
    static final List<String> failures = new ArrayList<>();

    static void check(boolean ok, String what) {
        checks++;
        if (!ok) {
            failures.add(what);
            System.err.println("FAILED: " + what);
        }
    }

    static void expect(Class<? extends Throwable> type, String what, Runnable call) {
        try {
            call.run();
            check(false, what + ": no " + type.getSimpleName());
        } catch (Throwable thrown) {
            check(type.isInstance(thrown), what + ": threw " + thrown + ", expected " + type.getSimpleName());
        }
    }

    /** What the listener heard, and on which threads. */
    static final class Recorder implements NativeBridge.Listener {
        final StringBuilder pieces = new StringBuilder();
        int pieceCount = 0;
        int changes = 0;
        final Set<Long> threads = new HashSet<>();

        @Override public synchronized void onStateChanged() {
            changes++;
            threads.add(Thread.currentThread().getId());
            notifyAll();
        }

        @Override public synchronized void onPiece(String piece) {
            pieces.append(piece);
            pieceCount++;
            threads.add(Thread.currentThread().getId());
            notifyAll();
        }

        synchronized void reset() {
            pieces.setLength(0);
            pieceCount = 0;
        }

        synchronized int pieceCount() { return pieceCount; }
        synchronized String pieces() { return pieces.toString(); }

        synchronized void awaitChange(long millis) throws InterruptedException {
            wait(millis);
        }

        /** Waits up to 2 s for the pieces to make `text`: the listener's thread may still be
         *  delivering the last ones when the screen already shows them. */
        synchronized void awaitPieces(String text) throws InterruptedException {
            long end = System.nanoTime() + 2_000_000_000L;
            while (!pieces.toString().equals(text) && System.nanoTime() < end) wait(20);
        }
    }

    /** Waits, for up to `seconds`, until the main screen satisfies `condition`. */
    static Map<String, Object> await(long handle, Recorder recorder, double seconds, String what, Predicate<Map<String, Object>> condition)
            throws InterruptedException {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        Map<String, Object> screen = Json.object(NativeBridge.screen(handle, "main"));
        while (!condition.test(screen)) {
            if (System.nanoTime() > end) {
                check(false, what + " (screen: " + NativeBridge.screen(handle, "main") + ")");
                return screen;
            }
            recorder.awaitChange(50);
            screen = Json.object(NativeBridge.screen(handle, "main"));
        }
        return screen;
    }

    static String slabAction(Map<String, Object> screen) {
        Map<String, Object> action = Json.at(screen, "slab", "action");
        return action.keySet().iterator().next();
    }

    /** A JSON string literal. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                default:
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c)); else out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** {"kind": {}} */
    static String action(String kind) { return "{\"" + kind + "\": {}}"; }

    /** {"kind": {"field": "value"}} */
    static String action(String kind, String field, String value) {
        return "{\"" + kind + "\": {\"" + field + "\": " + quote(value) + "}}";
    }

    /** Performs an action and returns its outcome's case and body. */
    static Map<String, Object> perform(long handle, String action) {
        return Json.object(NativeBridge.perform(handle, action));
    }

    static String outcome(Map<String, Object> outcome) { return outcome.keySet().iterator().next(); }

    static String notice(Map<String, Object> screen) { return (String) screen.get("notice"); }

    static String target(Map<String, Object> screen) { return (String) Json.<Map<String, Object>>at(screen, "target").get("text"); }

    static void translate(long handle, Recorder recorder, String text, String model) throws InterruptedException {
        recorder.reset();
        perform(handle, action("setSourceText", "text", text));
        perform(handle, action("translate"));
        Map<String, Object> done = await(handle, recorder, 120, model + ": the translation ends",
            s -> slabAction(s).equals("translate") && !Boolean.TRUE.equals(Json.<Map<String, Object>>at(s, "target").get("isMessage")));
        String result = target(done);
        recorder.awaitPieces(result);
        check(recorder.pieces().equals(result),
            model + ": the streamed pieces make the translation (pieces '" + recorder.pieces() + "', plate '" + result + "')");
        System.out.println("  " + model + ": '" + text + "' -> '" + result + "' in " + recorder.pieceCount() + " pieces");
    }

    /** Starts translating three sentences and waits (up to 60 s) for the first piece. */
    static void startLongTranslation(long handle, Recorder recorder, String what) throws InterruptedException {
        recorder.reset();
        perform(handle, action("setSourceText", "text",
            "The river runs past the old mill. The children walk to school in the rain. A friend brings bread and fruit to the house."));
        perform(handle, action("translate"));
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (recorder.pieceCount() == 0 && System.nanoTime() < deadline) recorder.awaitChange(20);
        check(recorder.pieceCount() > 0, what);
    }

    static String useFile(String path) { return "{\"useFileForSession\": {\"path\": " + quote(path) + ", \"format\": \"sourceTarget\"}}"; }

    static String importModel(String path) {
        return "{\"importModel\": {\"_0\": {\"path\": " + quote(path) + ", \"format\": \"sourceTarget\", \"copiesIntoApp\": false}}}";
    }

    /** One JSON of every action, as Contract.kt's Action writes it. */
    static Map<String, String> everyAction(String modelID, String words) {
        String id = "00000000-0000-4000-8000-000000000001";
        Map<String, String> all = new LinkedHashMap<>();
        all.put("setSourceText", action("setSourceText", "text", "toki"));
        for (String kind : new String[] {"pressSlab", "translate", "stop", "swap", "flipScript", "copy", "share", "dismissFirstRunHint", "toggleDownload", "acceptLicence",
                "pauseDownload", "cancelDownload", "retry", "clearHistory", "refresh", "wentToBackground", "readyNoticeHandled"}) {
            all.put(kind, action(kind));
        }
        all.put("setOtherLanguage", action("setOtherLanguage", "language", "vi"));
        all.put("setDirection", "{\"setDirection\": {\"direction\": {\"source\": \"ru\", \"target\": \"tok\"}}}");
        all.put("useSample", action("useSample", "phrase", "toki!"));
        all.put("translateIncoming", action("translateIncoming", "text", "I love you."));
        all.put("dismissNotice", "{\"dismissNotice\": {\"index\": 0}}");
        all.put("useWordList", action("useWordList", "path", words));
        all.put("lookUpWord", action("lookUpWord", "word", "moku"));
        all.put("closeWord", action("closeWord"));
        all.put("download", action("download", "id", "milmmt-46-1b-v1-1-q8-0"));
        all.put("acceptLicenceAndDownload", action("acceptLicenceAndDownload", "id", "milmmt-46-1b-v1-1-q8-0"));
        all.put("use", action("use", "id", modelID));
        all.put("useForSession", action("useForSession", "id", modelID));
        all.put("delete", action("delete", "id", "milmmt-46-1b-v1-1-q8-0"));
        all.put("importModel", importModel("/nonexistent/model.gguf"));
        all.put("useFileForSession", useFile("/nonexistent/model.gguf"));
        all.put("filterHistory", "{\"filterHistory\": {\"onlyOlin\": true}}");
        all.put("setImportFormat", "{\"setImportFormat\": {\"format\": \"queryAnswer\"}}");
        all.put("setOlin", "{\"setOlin\": {\"id\": \"" + id + "\", \"olin\": true}}");
        all.put("removeHistoryEntry", action("removeHistoryEntry", "id", id));
        all.put("reuse", action("reuse", "id", id));
        all.put("setKeepHistory", "{\"setKeepHistory\": {\"on\": true}}");
        all.put("setTranslateAsYouType", "{\"setTranslateAsYouType\": {\"on\": false}}");
        all.put("setHaptics", "{\"setHaptics\": {\"on\": false}}");
        all.put("setTranslateBySentence", "{\"setTranslateBySentence\": {\"on\": true}}");
        all.put("setTheme", action("setTheme", "theme", "dark"));
        all.put("setSitelenPonaFont", action("setSitelenPonaFont", "family", ""));
        return all;
    }

    /** The JSON keys of Contract.kt's Action cases. */
    static Set<String> contractActions(Path contract) throws java.io.IOException {
        String text = Files.readString(contract);
        String body = text.substring(text.indexOf("sealed interface Action {"), text.indexOf("sealed interface ActionOutcome {"));
        Set<String> kinds = new HashSet<>();
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("JSONObject\\(\\)\\.put\\(\"(\\w+)\"").matcher(body);
        while (matcher.find()) kinds.add(matcher.group(1));
        return kinds;
    }

    /** Waits, for up to `seconds`, until `condition` holds of the place's values. */
    static Map<String, Object> awaitPlace(long handle, Recorder recorder, String place, double seconds, String what,
            Predicate<Map<String, Object>> condition) throws InterruptedException {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        Map<String, Object> screen = Json.object(NativeBridge.screen(handle, place));
        while (!condition.test(screen)) {
            if (System.nanoTime() > end) {
                check(false, what + " (" + place + ": " + NativeBridge.screen(handle, place) + ")");
                return screen;
            }
            recorder.awaitChange(50);
            screen = Json.object(NativeBridge.screen(handle, place));
        }
        return screen;
    }

    static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> result = new HashSet<>(a);
        result.removeAll(b);
        return result;
    }

    public static void main(String[] args) throws Exception {
        Path work = Paths.get(args[0]);
        String tiny = args[1];
        String gemma = args[2];
        Path contract = Paths.get(args[3]);
        String words = args[4];
        CountDownLatch loaded = new CountDownLatch(1);
        Throwable[] loaderFailure = {null};

        // Like Android's UI thread: the thread that loads the library owns Swift's main queue.
        Thread swiftMain = new Thread(() -> {
            try {
                System.loadLibrary(NativeBridge.LIBRARY);
                check(NativeBridge.version().startsWith("ilo toki "), "version()");
                Recorder recorder = new Recorder();
                long handle = NativeBridge.open(work.resolve("loader").toString(), "en", FONTS, recorder);
                check(NativeBridge.screen(handle, "main").contains("\"slab\""), "a call on the loading thread serves the queue itself");
                NativeBridge.close(handle);
            } catch (Throwable thrown) {
                loaderFailure[0] = thrown;
            }
            loaded.countDown();
            if (loaderFailure[0] == null) NativeBridge.runMainQueue();
        }, "swift-main");
        swiftMain.start();
        loaded.await();
        if (loaderFailure[0] != null) throw new AssertionError("loading failed", loaderFailure[0]);

        Recorder recorder = new Recorder();
        long handle = NativeBridge.open(work.resolve("store").toString(), "en", FONTS, recorder);
        Map<String, String> strings = new LinkedHashMap<>();
        Json.object(NativeBridge.strings(handle)).forEach((key, value) -> strings.put(key, (String) value));
        check("Translate".equals(strings.get("translate")), "strings() in English");
        Map<String, Object> first = Json.object(NativeBridge.screen(handle, "main"));
        check(strings.get("modelNotDownloaded").equals(target(first)), "a new store says the model is not downloaded");
        check(slabAction(first).equals("download"), "and the slab downloads it");
        // The slab asks for the model licence first (and downloads nothing until it is accepted).
        Map<String, Object> offer = perform(handle, action("pressSlab"));
        check(outcome(offer).equals("showLicence") && Json.<Map<String, Object>>at(offer, "showLicence", "_0", "entry").get("id") != null
            && ((String) Json.<Map<String, Object>>at(offer, "showLicence", "_0").get("summary")).contains("Gemma"),
            "pressing the slab on a new store offers the model licence first (" + offer + ")");
        for (String place : new String[] {"main", "models", "history", "settings", "about"}) {
            check(Json.parse(NativeBridge.screen(handle, place)) instanceof Map, "screen(" + place + ") is a JSON object");
        }
        // The history's filter is the model's: the page says it, and no place is made up for it.
        perform(handle, "{\"filterHistory\": {\"onlyOlin\": true}}");
        check(Boolean.TRUE.equals(Json.object(NativeBridge.screen(handle, "history")).get("onlyOlin")), "the history shows only olin after filterHistory");
        perform(handle, "{\"filterHistory\": {\"onlyOlin\": false}}");
        check(!Boolean.TRUE.equals(Json.object(NativeBridge.screen(handle, "history")).get("onlyOlin")), "and everything after filterHistory(false)");

        // Translate with each model, streamed through the listener.
        for (String[] model : new String[][] {{"tiny", tiny, "jan li moku"}, {"Gemma 3 270M", gemma, "I love you"}}) {
            perform(handle, useFile(model[1]));
            await(handle, recorder, 120, model[0] + " loads", s -> slabAction(s).equals("translate"));
            translate(handle, recorder, model[2], model[0]);
        }
        check(recorder.pieceCount() > 1, "Gemma's translation arrives in several pieces");
        check(recorder.threads.size() == 1, "the listener is always called on the same thread (" + recorder.threads + ")");

        // Stop mid-way.
        startLongTranslation(handle, recorder, "a long translation starts streaming");
        perform(handle, action("stop"));
        Map<String, Object> stopped = await(handle, recorder, 5, "a stop ends the translation at once", s -> slabAction(s).equals("translate"));
        String atStop = target(stopped);
        recorder.awaitPieces(atStop);
        check(recorder.pieces().equals(atStop), "the pieces heard make the stopped translation");
        System.out.println("  stopped after " + recorder.pieceCount() + " pieces");
        // Nothing of the stopped translation comes later: the engine starts the next one only
        // once the stopped one has ended, so the next is heard whole and alone (translate checks
        // that its pieces make exactly its text).
        translate(handle, recorder, "I love you", "Gemma after a stop");

        // The system's onTrimMemory: the engine streams its checks, and translates the same.
        NativeBridge.setShortOfMemory(handle, true);
        translate(handle, recorder, "I love you", "Gemma short of memory");
        NativeBridge.setShortOfMemory(handle, false);
        expect(IllegalStateException.class, "short of memory on a handle never opened", () -> NativeBridge.setShortOfMemory(424242, true));

        // Text the way Java holds it: a lone surrogate, and a character outside the BMP.
        perform(handle, action("setSourceText", "text", "a\uD800b \uD83D\uDE3A"));
        String source = (String) Json.<Map<String, Object>>at(Json.object(NativeBridge.screen(handle, "main")), "source").get("text");
        check(source.equals("a\uFFFDb \uD83D\uDE3A"), "a lone surrogate becomes U+FFFD, an emoji survives (got " + source + ")");

        // Bad input and misuse: exceptions, never a crash.
        expect(IllegalArgumentException.class, "an unknown place", () -> NativeBridge.screen(handle, "nowhere"));
        expect(IllegalArgumentException.class, "an unknown action", () -> NativeBridge.perform(handle, action("fly")));
        expect(IllegalArgumentException.class, "a bad theme", () -> NativeBridge.perform(handle, action("setTheme", "theme", "purple")));
        expect(IllegalArgumentException.class, "an action that is not JSON", () -> NativeBridge.perform(handle, "{not json"));
        expect(IllegalArgumentException.class, "an action without its field", () -> NativeBridge.perform(handle, "{\"setSourceText\": {}}"));
        expect(NullPointerException.class, "a missing action", () -> NativeBridge.perform(handle, null));
        expect(NullPointerException.class, "open without a directory", () -> NativeBridge.open(null, "en", FONTS, recorder));
        expect(NullPointerException.class, "open without a listener", () -> NativeBridge.open(work.resolve("x").toString(), "en", FONTS, null));
        expect(IllegalStateException.class, "a handle never opened", () -> NativeBridge.screen(424242, "main"));
        expect(IllegalStateException.class, "runMainQueue on the wrong thread", NativeBridge::runMainQueue);
        // An import returns at once; what is wrong with the file arrives as a notice.
        String missing = work.resolve("missing.gguf").toString();
        check(outcome(perform(handle, importModel(missing))).equals("done"), "an import returns at once");
        await(handle, recorder, 10, "adding a file that is not there says so", s -> notice(s) != null && notice(s).contains("missing.gguf"));
        Path notModel = Files.writeString(work.resolve("not-a-model.gguf"), "hello");
        perform(handle, importModel(notModel.toString()));
        Map<String, Object> refused = await(handle, recorder, 10, "a refused model says why",
            s -> notice(s) != null && notice(s).contains("not-a-model.gguf"));
        System.out.println("  refused: " + notice(refused).replace('\n', ' '));
        check(outcome(perform(handle, action("use", "id", "no-such-model"))).equals("failed"), "using a model that does not exist is refused");

        // use and delete return at once, and their work goes on: loading Gemma takes far longer.
        perform(handle, importModel(gemma));
        Map<String, Object> models = awaitPlace(handle, recorder, "models", 60, "Gemma is added",
            s -> ((List<?>) s.get("rows")).stream().anyMatch(r -> ((String) ((Map<?, ?>) r).get("facts")).contains("gemma-3-270m")));
        String gemmaID = null;
        for (Object row : (List<?>) models.get("rows")) {
            Map<?, ?> fields = (Map<?, ?>) row;
            if (((String) fields.get("facts")).contains("gemma-3-270m")) gemmaID = (String) fields.get("id");
        }
        long before = System.nanoTime();
        Map<String, Object> used = perform(handle, action("use", "id", gemmaID));
        double useMillis = (System.nanoTime() - before) / 1e6;
        String lineAfterUse = (String) Json.<Map<String, Object>>at(Json.object(NativeBridge.screen(handle, "main")), "header").get("modelLine");
        check(outcome(used).equals("done") && useMillis < 50, "use returns within 50 ms (" + String.format("%.1f", useMillis) + " ms)");
        check(lineAfterUse.equals(strings.get("modelLoading")), "and the load goes on after it (the header says " + lineAfterUse + ")");
        await(handle, recorder, 120, "Gemma loads after use", s -> slabAction(s).equals("translate"));
        before = System.nanoTime();
        Map<String, Object> deleted = perform(handle, action("delete", "id", gemmaID));
        double deleteMillis = (System.nanoTime() - before) / 1e6;
        check(outcome(deleted).equals("done") && deleteMillis < 50, "delete returns within 50 ms (" + String.format("%.1f", deleteMillis) + " ms)");
        final String deletedID = gemmaID;
        awaitPlace(handle, recorder, "models", 30, "the deleted model leaves the list",
            s -> ((List<?>) s.get("rows")).stream().noneMatch(r -> deletedID.equals(((Map<?, ?>) r).get("id"))));
        System.out.println(String.format("  use returned in %.1f ms, delete in %.1f ms", useMillis, deleteMillis));
        perform(handle, useFile(gemma));
        await(handle, recorder, 120, "Gemma loads again for the rest", s -> slabAction(s).equals("translate"));

        // lipu Linku's words: the list from a file, a word's entry on the main screen, closed again.
        check(outcome(perform(handle, action("useWordList", "path", words))).equals("done"), "the word list is read");
        check(outcome(perform(handle, action("lookUpWord", "word", "moku"))).equals("done"), "moku is looked up");
        Map<?, ?> card = (Map<?, ?>) Json.object(NativeBridge.screen(handle, "main")).get("word");
        check(card != null && "moku".equals(card.get("word")) && String.valueOf(card.get("definition")).contains("eat"),
            "the main screen shows moku's entry (" + card + ")");
        check(outcome(perform(handle, action("lookUpWord", "word", "hello"))).equals("failed"), "a word lipu Linku lacks fails");
        perform(handle, action("closeWord"));
        check(Json.object(NativeBridge.screen(handle, "main")).get("word") == null, "the entry closes");

        // Text from another app (the text-selection menu, a share): onto the source plate, and the main screen shows.
        check(outcome(perform(handle, action("translateIncoming", "text", "I love you."))).equals("showMain"), "text from another app shows the main screen");
        Map<String, Object> received = Json.object(NativeBridge.screen(handle, "main"));
        check("I love you.".equals(Json.<Map<String, Object>>at(received, "source").get("text")), "the text is on the source plate");
        check("Replace the selected text".equals(received.get("replaceLabel")), "the main screen offers the translation back in place");
        check(received.get("readyNotice") == null, "no ready notice without a download");
        check(outcome(perform(handle, action("readyNoticeHandled"))).equals("done"), "a notice handled when there is none changes nothing");

        // Every action of the contract, each answered with an outcome Core knows.
        long every = NativeBridge.open(work.resolve("every").toString(), "en", FONTS, new Recorder());
        Map<String, String> all = everyAction(gemmaID, words);
        Set<String> declared = contractActions(contract);
        check(all.keySet().equals(declared), "the harness drives every action Contract.kt declares (missing "
            + difference(declared, all.keySet()) + ", unknown " + difference(all.keySet(), declared) + ")");
        Set<String> outcomes = Set.of("done", "showLicence", "added", "copy", "share", "failed", "showMain");
        double slowest = 0;
        String slowestKind = "";
        for (Map.Entry<String, String> entry : all.entrySet()) {
            long start = System.nanoTime();
            String answer = outcome(perform(every, entry.getValue()));
            double millis = (System.nanoTime() - start) / 1e6;
            check(outcomes.contains(answer), entry.getKey() + " answers with an outcome (" + answer + ")");
            if (millis > slowest) {
                slowest = millis;
                slowestKind = entry.getKey();
            }
        }
        System.out.println(String.format("  %d actions performed; the slowest to return: %s, %.1f ms", all.size(), slowestKind, slowest));
        NativeBridge.close(every);

        // A listener that throws does not take the bridge down.
        NativeBridge.Listener throwing = new NativeBridge.Listener() {
            boolean thrown = false;
            @Override public void onStateChanged() {
                if (thrown) return;
                thrown = true;
                throw new RuntimeException("listener failure (expected by the harness)");
            }
            @Override public void onPiece(String piece) {}
        };
        long other = NativeBridge.open(work.resolve("other").toString(), "ru", FONTS, throwing);
        perform(other, action("setSourceText", "text", "toki"));
        check(Json.object(NativeBridge.strings(other)).get("translate").equals("Перевести"), "a second store in Russian");

        // Two threads at once, on the same store and on another.
        Throwable[] racing = {null, null};
        Thread[] threads = new Thread[2];
        for (int t = 0; t < 2; t++) {
            final int index = t;
            threads[t] = new Thread(() -> {
                try {
                    for (int i = 0; i < 200; i++) {
                        perform(index == 0 ? handle : other, action("setSourceText", "text", "thread " + index + " line " + i));
                        Json.object(NativeBridge.screen(handle, i % 2 == 0 ? "main" : "history"));
                    }
                } catch (Throwable thrown) {
                    racing[index] = thrown;
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) thread.join();
        check(racing[0] == null && racing[1] == null, "two threads calling at once: " + racing[0] + ", " + racing[1]);
        String last = (String) Json.<Map<String, Object>>at(Json.object(NativeBridge.screen(handle, "main")), "source").get("text");
        check(last.equals("thread 0 line 199"), "the last text set is the one on the plate (" + last + ")");

        // Close mid-translation: close returns once the engine has stopped, nothing is heard
        // after it, and the process then exits (System.exit below) without racing the engine.
        NativeBridge.close(other);
        startLongTranslation(handle, recorder, "a translation streams when its session is closed");
        NativeBridge.close(handle);
        int heardAtClose = recorder.pieceCount();
        expect(IllegalStateException.class, "a call after close", () -> NativeBridge.screen(handle, "main"));
        expect(IllegalStateException.class, "closing twice", () -> NativeBridge.close(handle));
        check(Files.exists(work.resolve("store/history.json")), "the history reached the disk");

        NativeBridge.stopMainQueue();
        swiftMain.join();
        check(recorder.pieceCount() == heardAtClose, "nothing is heard after close (" + heardAtClose + " pieces at close, "
            + recorder.pieceCount() + " after)");
        System.out.println("JNI harness: " + (checks - failures.size()) + " of " + checks + " checks passed");
        System.exit(failures.isEmpty() ? 0 : 1);
    }
}
