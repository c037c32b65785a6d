/// A property line split into its parts: `[group "."] name *(";" parameter) ":" value`.
struct ContentLine {
    /// The group (`item1` in `item1.TEL`), uppercased so lookups ignore case; `nil` for none.
    var group: String?
    /// The property name, uppercased.
    var name: String
    /// The property, when the decoder knows it.
    var property: Property?
    var parameters: [Parameter]
    /// Every TYPE value, lowercased, whether given as `TYPE=a,b`, `TYPE=a;TYPE=b` or 2.1's bare `;A;B`.
    var types: [String]
    /// The value, still escaped and encoded as in the file.
    var value: Bytes
    /// The whole unfolded line, as in the file.
    var raw: Bytes
    /// The 1-based line it starts on.
    var number: Int

    /// One parameter; a vCard 2.1 bare parameter (`TEL;HOME:`) is read as `TYPE=HOME`, or `ENCODING=...` for
    /// an encoding name.
    struct Parameter {
        /// Uppercased.
        var name: String
        /// Unquoted and with RFC 6868 `^` escapes decoded.
        var value: String
    }

    /// The first value of a parameter, by uppercase name.
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// The ENCODING parameter, uppercased: `B`, `BASE64`, `QUOTED-PRINTABLE`, `8BIT`...
    var encoding: String? { parameter("ENCODING")?.uppercased() }
}
