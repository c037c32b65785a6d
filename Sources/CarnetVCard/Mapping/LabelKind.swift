/// The multi-value properties, which differ in the TYPE values their labels have.
enum LabelKind {
    case phone
    case email
    case address
    case url
    case date
    case relation
    case socialProfile
    case instantMessage
}
