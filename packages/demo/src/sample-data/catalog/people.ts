export const FIRST_NAMES = [
  'Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances', 'Edsger',
  'Radia', 'Tim', 'Sophie', 'Yusuf', 'Priya', 'Mateo', 'Lena', 'Kofi', 'Mei', 'Olga', 'Diego',
  'Aisha', 'Noah', 'Hana',
]
export const LAST_NAMES = [
  'Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Allen',
  'Dijkstra', 'Perlman', 'Berners-Lee', 'Wilson', 'Khan', 'Patel', 'Garcia', 'Schmidt', 'Mensah',
  'Chen', 'Ivanova', 'Silva', 'Okafor', 'Martin', 'Sato',
]
/** Where people without a company get their email. */
export const EMAIL_DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'proton.me', 'icloud.com']
