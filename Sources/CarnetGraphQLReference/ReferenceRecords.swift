import CarnetGraphQL
import CarnetStore
import Foundation
import GraphQL
import OrderedCollections

/// Store records as the dictionaries GraphQLSwift's default resolver reads.
enum ReferenceRecords {
    typealias Record = [String: any Sendable]

    static func typename(of value: any Sendable) -> String {
        (value as? Record)?["__typename"] as? String ?? ""
    }

    static func contact(_ c: Contact) -> Record {
        var record: Record = [
            "__typename": "Contact", "id": c.identifier,
            "contactType": c.contactType == .person ? "PERSON" : "ORGANIZATION",
            "imageDataAvailable": c.imageDataAvailable, "revision": String(c.revision), "isUnified": c.isUnified,
            "createdAt": iso(c.createdAt), "modifiedAt": iso(c.modifiedAt),
        ]
        for key in ContactKey.stringKeys { record[key.rawValue] = c.string(key) }
        if let date = c.birthday { record["birthday"] = self.date(date) }
        if let date = c.nonGregorianBirthday { record["nonGregorianBirthday"] = self.date(date) }
        if let data = c.imageData { record["imageData"] = data.base64EncodedString() }
        if let data = c.thumbnailImageData { record["thumbnailImageData"] = data.base64EncodedString() }
        record["phoneNumbers"] = c.phoneNumbers.map { labeled($0) { $0 } }
        record["emailAddresses"] = c.emailAddresses.map { labeled($0) { $0 } }
        record["urlAddresses"] = c.urlAddresses.map { labeled($0) { $0 } }
        record["postalAddresses"] = c.postalAddresses.map {
            labeled($0) { a -> Record in
                [
                    "street": a.street, "subLocality": a.subLocality, "city": a.city,
                    "subAdministrativeArea": a.subAdministrativeArea,
                    "state": a.state, "postalCode": a.postalCode, "country": a.country,
                    "isoCountryCode": a.isoCountryCode,
                ]
            }
        }
        record["dates"] = c.dates.map { labeled($0) { self.date($0) } }
        record["contactRelations"] = c.contactRelations.map { labeled($0) { r -> Record in ["name": r.name] } }
        record["socialProfiles"] = c.socialProfiles.map {
            labeled($0) { p -> Record in
                [
                    "urlString": p.urlString, "username": p.username, "userIdentifier": p.userIdentifier,
                    "service": p.service,
                ]
            }
        }
        record["instantMessageAddresses"] = c.instantMessageAddresses.map {
            labeled($0) { a -> Record in
                ["username": a.username, "service": a.service]
            }
        }
        record["vCardProperties"] = c.vCardProperties.map(\.value)
        record["_contact"] = c
        return record
    }

    static func group(_ g: Group) -> Record {
        [
            "__typename": "Group", "id": g.identifier, "name": g.name, "revision": String(g.revision),
            "createdAt": iso(g.createdAt), "modifiedAt": iso(g.modifiedAt),
        ]
    }

    static func container(_ c: Container) -> Record {
        let type =
            switch c.type {
            case .unassigned: "UNASSIGNED"
            case .local: "LOCAL"
            case .exchange: "EXCHANGE"
            case .cardDAV: "CARD_DAV"
            }
        return [
            "__typename": "Container", "id": c.identifier, "name": c.name, "type": type, "isDefault": c.isDefault,
            "createdAt": iso(c.createdAt),
        ]
    }

    static func date(_ d: ContactDate) -> Record {
        var record: Record = ["calendar": d.calendar, "month": d.month, "day": d.day, "isLeapMonth": d.isLeapMonth]
        if let era = d.era { record["era"] = era }
        if let year = d.year { record["year"] = year }
        return record
    }

    static func labeled<V>(_ value: LabeledValue<V>, _ convert: (V) -> any Sendable) -> Record {
        var record: Record = ["identifier": value.identifier ?? "", "value": convert(value.value)]
        if let label = value.label { record["label"] = ContactLabel.shortName(of: label) ?? label }
        return record
    }

    /// ISO 8601 with milliseconds in UTC, formatted by Foundation (an independent check of Carnet's formatter).
    static func iso(_ date: Date?) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let milliseconds = ((date ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970 * 1000).rounded(.down) / 1000
        return formatter.string(from: Date(timeIntervalSince1970: milliseconds))
    }
}
