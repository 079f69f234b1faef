import Foundation
import GGTrackerCatalog
import GGTrackerStorage
import Testing

@Suite("Reading catalog lines")
struct LineReaderTests {
    @Test func theFastLineReaderMapsEveryBundledGameAsFoundationDoes() throws {
        let path = try #require(BundledCatalog.path)
        let data = try CatalogImporter.readFile(path)
        let reader = JSONLineReader()
        var compared = 0
        for range in CatalogImporter.lineRanges(data) {
            let line = data[range]
            let slow = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            let fast = try reader.object(line)
            let (fastRecord, slowRecord, typedRecord) = (
                try IGDBGameMapping.record(from: fast), try IGDBGameMapping.record(from: slow),
                try IGDBGameMapping.record(from: try reader.igdbFields(line))
            )
            #expect(fastRecord.game == slowRecord.game && fastRecord.steamAppIDs == slowRecord.steamAppIDs)
            #expect(typedRecord.game == slowRecord.game && typedRecord.steamAppIDs == slowRecord.steamAppIDs)
            #expect(typedRecord.keywords == slowRecord.keywords && typedRecord.popularity == slowRecord.popularity)
            compared += 1
        }
        #expect(compared >= 20_000)
    }

    /// Lines whose fields take every branch of the typed reader: nulls, wrong types, names as strings or objects,
    /// repeated keys (the last wins), escaped keys, companies mixed with other values, rare fields kept as parsed.
    @Test(arguments: [
        #"{"id":7,"name":"A","aggregated_rating":null,"aggregated_rating_count":null,"slug":null,"summary":""}"#,
        #"{"id":"7","slug":"a-game","name":"A","first_release_date":"soon","release_date":1.5e9,"url":3}"#,
        #"{"id":7.0,"name":"A","genres":["RPG",{"name":"RPG"},{"id":4},{"name":""},"",5,null,{"name":"Puzzle","x":[1]}]}"#,
        #"{"id":7,"name":"A","platforms":{"name":"PC"},"game_modes":"Single","themes":[{"name":"Horror","name":7}]}"#,
        #"{"id":7,"name":"B","name":"A","na\u006de":"C","\u0069d":8,"igdb_id":9,"cover":{"url":"x"},"cover_url":"//i/t/co9.jpg"}"#,
        #"{"id":7,"name":"A","involved_companies":[{"company":{"name":"Dev"},"developer":true,"publisher":1}]}"#,
        #"{"id":7,"name":"A","involved_companies":[{"company":{"name":"Dev"},"developer":true},17]}"#,
        #"{"id":7,"name":"A","involved_companies":[{"company":"Dev","developer":true},{"company":{"name":"Pub"},"publisher":true,"developer":false}]}"#,
        #"{"id":7,"name":"A","developers":["Dev"],"publishers":[{"name":"Pub"}],"game_type":{"type":"DLC"},"cover":{"image_id":"co1"}}"#,
        #"{"id":7,"name":"A","first_release_date":1.6e9,"release_dates":[{"date_format":2}],"age_ratings":[{"rating":11}]}"#,
        #"{"id":7,"name":"A","time_to_beat":{"normally":3600},"external_games":[{"category":1,"uid":"620"}],"updated_at":17e8}"#,
        #"{"id":-12,"name":"  Spaced  ","aggregated_rating":91.5,"aggregated_rating_count":4,"total_rating_count":12,"ignored":{"a":[true]}}"#,
        #"{"id":123456789012345678901,"name":"Huge"}"#,
        #"{"id":7,"name":"A","external_ids":[{"store":"store_None","uid":"5","url":"https://store.steampowered.com/app/570/x"},{"uid":"9","url":"https://www.gog.com/en/game/a"},{"store":"steam","uid":"620"},{"url":"https://store.steampowered.com/app/570"}]}"#,
        #"{"id":7,"name":"A","external_games":[{"external_game_source":1,"uid":440},{"category":1,"uid":"x"},{"category":1,"external_game_source":2,"uid":"7"},{"category":null,"uid":"-4","store":"steam"}]}"#,
        #"{"id":7,"name":"A","external_ids":[{"url":"store.steampowered.com/app/12"},3],"external_games":{"category":1,"uid":"5"}}"#,
        #"{"id":7,"name":"A","external_ids":[{"url":"https://store.steampowered.com/app/"},{"url":7,"store":["steam"],"uid":1}],"external_games":[]}"#,
        #"{"id":7,"name":"A","external_games":[{"category":1,"uid":"11","uid":12}],"external_games":[{"category":1,"uid":"13"}]}"#,
    ])
    func theTypedReaderReadsWhatTheMappingReadsFromAnObject(json: String) throws {
        let line = Data(json.utf8)
        // The reader's own objects, not Foundation's: Foundation reads 1 as a number that is also `true`.
        let object = try JSONLineReader().object(line)
        let expected = Result { try IGDBGameMapping.record(from: object) }
        let typed = Result { try IGDBGameMapping.record(from: try JSONLineReader().igdbFields(line)) }
        switch (expected, typed) {
        case (.success(let expected), .success(let typed)):
            #expect(typed.game == expected.game && typed.steamAppIDs == expected.steamAppIDs)
            #expect(typed.popularity == expected.popularity && typed.keywords == expected.keywords)
        case (.failure(let expected), .failure(let typed)):
            #expect("\(typed)" == "\(expected)")
        default:
            Issue.record("the object gave \(expected), the typed reader \(typed)")
        }
    }

    @Test(arguments: [
        "//images.igdb.com/igdb/image/upload/t_thumb/co20gb.jpg", "co1.png/", "//a/b//", "/x/..jpg", "/x/...", "plain",
        "", "///", "/a/.b.c", "//i/t/çover.jpg", "//i/t/e\u{301}/co2.jpg", "//i/t/co3.jpg/\u{301}",
    ])
    func aCoverAddressGivesTheLastPartOfItsPathUpToItsFirstDot(url: String) {
        let byCharacters = url.split(separator: "/").last?.split(separator: ".").first.map(String.init)
        #expect(IGDBGameMapping.coverImageID(url: url) == byCharacters)
    }

    @Test(arguments: [
        #"{"name":"Caf\u00e9 \"Quoted\" \\ \/ \n\t","id":-0,"x":[1.5e3,-2E-2,true,false,null,{}]}"#,
        #"{"name":"\ud83c\udfae Game","id":9007199254740993,"y":{"z":[[],[{}]]}}"#,
        #" { "name" : "Spaced" , "id" : 12 } "#,
        #"{"name":"Ünïcödé ゲーム","id":3,"rating":92.25}"#,
    ])
    func theLineReaderAgreesWithFoundation(json: String) throws {
        let fast = try JSONLineReader().object(Data(json.utf8))
        let slow = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(NSDictionary(dictionary: fast).isEqual(to: slow))
    }

    @Test(arguments: [
        #"{"name":"x",}"#, #"{"name":01}"#, #"{"name":"\ud800"}"#, #"{"name":"a"} x"#, "{\"name\":\"tab\there\"}",
        #"{"name":tru}"#, #"{"name":1.}"#, #"{"name":"\x"}"#, #"{"name""x"}"#, #"["not an object"]"#,
        String(repeating: "[", count: 100), #"{"genres":[{"name":"a",}]}"#, #"{"id":nul}"#, #"{"genres":["a" "b"]}"#,
        #"{"cover":{"image_id":"x"}"#, #"{"involved_companies":[{"developer":tru}]}"#, #"{"id":1,"name":"a",}"#,
    ])
    func theLineReaderRefusesWhatIsNotJSON(json: String) {
        #expect(throws: JSONLineReader.Malformed.self) { try JSONLineReader().object(Data(json.utf8)) }
        #expect(throws: JSONLineReader.Malformed.self) { try JSONLineReader().igdbFields(Data(json.utf8)) }
    }
}
