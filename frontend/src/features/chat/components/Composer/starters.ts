/** Openers offered on an empty chat; a tap puts the words in the box, to finish or send. */
export const STARTERS = ['Exams on my mind', 'Roommate stuff', 'Missing home', 'Something good happened'];
